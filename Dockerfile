# syntax=docker/dockerfile:1
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --omit=dev leaves out the registry's `node` package too: the image's own Node 24 runs the service
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
# DATA_DIR holds the generated SECRETS_KEY and console key (and PGlite's files): kept across containers.
# Replicas on one database need one SECRETS_KEY set explicitly (README, Security).
VOLUME /data
USER node
# only the partner listener: the console (3001, plain HTTP, operator-only) is never to be published
EXPOSE 3000
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=16", "--min-semi-space-size=16", "dist/src/main.js"]

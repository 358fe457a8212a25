# syntax=docker/dockerfile:1
# The base: the exact Node release of the lockfile's runtime (tools/node-runtime) on Debian 12, pinned by tag.
# Its digest could not be verified where this was written (no registry but npm's and Debian's); where Docker Hub
# answers, pin it: `docker buildx imagetools inspect node:24.21.0-bookworm-slim`, then
# --build-arg NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:<digest> (docs/install-trust.md).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# the locked Node runtime's wrapper tarball (a devDependency, file:tools/node-runtime/…; docs/install-trust.md)
COPY tools/node-runtime ./tools/node-runtime
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY tools/node-runtime ./tools/node-runtime
# --omit=dev leaves out the locked Node binaries (partner-api-node-runtime) too: the image's own Node runs the service
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
# DATA_DIR holds the generated SECRETS_KEY and console key (and PGlite's files): kept across containers.
# Replicas on one database need one SECRETS_KEY set explicitly (docs/operator-guide.md, Security).
VOLUME /data
USER node
# only the partner listener: the console (3001, plain HTTP, operator-only) is never to be published
EXPOSE 3000
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=16", "--min-semi-space-size=16", "dist/src/main.js"]

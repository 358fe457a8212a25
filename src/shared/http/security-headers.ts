import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * CONTRACT §3: every response carries `X-Content-Type-Options: nosniff` (with helmet's other defaults);
 * JSON answers get a CSP that allows nothing. The Swagger UI page at /docs loads its scripts and styles
 * from this origin and writes inline styles, so it gets a CSP that allows exactly that.
 */
const apiHeaders = helmet({
  frameguard: { action: 'deny' },
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
});

const docsHeaders = helmet({
  frameguard: { action: 'deny' },
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
});

export const DOCS_PATH = '/docs';

interface HeaderSet {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
}

/**
 * What a helmet middleware does to a response, recorded once: with fixed options its headers are the
 * same on every response, so they are replayed per request without helmet's chain of a dozen
 * middlewares (issue 11).
 */
export function recordHeaders(middleware: RequestHandler): HeaderSet {
  const set: Array<readonly [string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void set.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let done = false;
  middleware({ headers: {}, method: 'GET' } as never, recorder as never, ((err?: unknown) => {
    if (err) throw err;
    done = true;
  }) as never);
  if (!done) throw new Error('the security headers middleware did not finish synchronously');
  return { set, removed };
}

const API = recordHeaders(apiHeaders);
const DOCS = recordHeaders(docsHeaders);

export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    const docs = req.path === DOCS_PATH || req.path.startsWith(`${DOCS_PATH}/`);
    const headers = docs ? DOCS : API;
    for (const name of headers.removed) res.removeHeader(name);
    for (const [name, value] of headers.set) res.setHeader(name, value);
    next();
  };
}

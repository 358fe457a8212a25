import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { beginHeaders, fixedHeaders } from '../performance/headers-written-once';

/**
 * CONTRACT §3: every response carries `X-Content-Type-Options: nosniff` (with helmet's other defaults);
 * JSON answers get a CSP that allows nothing. The Swagger UI page at /docs loads its scripts and styles
 * from this origin and writes inline styles, so it gets a CSP that allows exactly that.
 */
export const helmetApiHeaders = helmet({
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
  middleware(
    { headers: {}, method: 'GET' } as never,
    recorder as never,
    ((err?: unknown) => {
      if (err) throw err;
      done = true;
    }) as never,
  );
  if (!done) throw new Error('the security headers middleware did not finish synchronously');
  return { set, removed };
}

const API = recordHeaders(helmetApiHeaders);
const DOCS = recordHeaders(docsHeaders);
const API_FIXED = fixedHeaders(API.set);
const DOCS_FIXED = fixedHeaders(DOCS.set);

/** Whether a request's URL (path and query, as received) is under DOCS_PATH: `/docs`, `/docs/…` or `/docs?…`. */
function underDocs(url: string): boolean {
  if (!url.startsWith(DOCS_PATH)) return false;
  const after = url.charCodeAt(DOCS_PATH.length);
  return Number.isNaN(after) || after === 0x2f /* / */ || after === 0x3f; /* ? */
}

/**
 * The first middleware of both listeners: the response's headers begin with these, recorded and written
 * once where the listener was prepared for it (headers-written-once.ts), else set one by one.
 */
export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    // the raw URL, not Express's req.path (a parse of the URL, a getter on every request)
    const docs = underDocs(req.url);
    const headers = docs ? DOCS : API;
    for (let i = 0; i < headers.removed.length; i++) res.removeHeader(headers.removed[i]);
    beginHeaders(res, docs ? DOCS_FIXED : API_FIXED);
    next();
  };
}

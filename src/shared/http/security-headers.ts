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

export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    const docs = req.path === DOCS_PATH || req.path.startsWith(`${DOCS_PATH}/`);
    return (docs ? docsHeaders : apiHeaders)(req, res, next);
  };
}

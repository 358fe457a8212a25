import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const VISIBLE_ASCII_1_128 = /^[\x21-\x7e]{1,128}$/;

/**
 * A request id the service makes (a caller sent none, or none it may keep): a UUID of version 7 (RFC 9562), whose
 * first 48 bits are the time in ms. The request log indexes each call by its app, environment and request id
 * (CONTRACT §20's Request id filter); ids that grow with time put each new call at its stream's end of that index,
 * where random ones (version 4) put it on any of its pages (bench/RESULTS.md, "Issue 47, 2026-11-29 (third
 * session)"). The time it shows is the response's own `Date`. Made from Node's version-4 UUID (its 74 random bits
 * after the time and the version): the `uuid` package's `v7()` cost about 13 µs of a replay's CPU in this
 * service, measured in the same sitting, against well under 1 µs for this.
 */
export function newRequestId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V the variant
  const ms = Date.now().toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${random.slice(15)}`;
}

/**
 * CONTRACT §3: every response carries X-Request-Id (the caller's when it is 1–128 visible ASCII
 * characters, otherwise a new one); partner responses carry Cache-Control: no-store.
 */
export function requestIdMiddleware(options: { noStore: boolean }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && VISIBLE_ASCII_1_128.test(given) ? given : newRequestId();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    if (options.noStore) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

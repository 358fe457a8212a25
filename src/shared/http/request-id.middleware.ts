import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const VISIBLE_ASCII_1_128 = /^[\x21-\x7e]{1,128}$/;

/**
 * CONTRACT §3: every response carries X-Request-Id (the caller's when it is 1–128 visible ASCII
 * characters, otherwise a new one); partner responses carry Cache-Control: no-store.
 */
export function requestIdMiddleware(options: { noStore: boolean }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && VISIBLE_ASCII_1_128.test(given) ? given : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    if (options.noStore) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

import type { Request } from 'express';

/**
 * The client address of CONTRACT §11/§12: the peer's, or with TRUST_PROXY the one the trusted proxies
 * name in X-Forwarded-For (Express's `req.ip`, set up by configureHttpApp). An IPv4 peer of a dual-stack
 * socket (`::ffff:203.0.113.5`) is written as IPv4, so one client has one address.
 */
export function clientAddress(req: Request): string {
  const ip = req.ip ?? req.socket?.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip === '' ? 'unknown' : ip;
}

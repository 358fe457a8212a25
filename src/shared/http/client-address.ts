import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * The client address of CONTRACT §11/§12: the peer's, or with TRUST_PROXY the one the trusted proxies
 * name in X-Forwarded-For (Express's `req.ip`, set up by configureHttpApp). An IPv4 peer of a dual-stack
 * socket (`::ffff:203.0.113.5`) is written as IPv4, so one client has one address.
 */
export function clientAddress(req: Request): string {
  const ip = req.ip ?? req.socket?.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip === '' ? 'unknown' : ip;
}

/**
 * The unit a client address is counted in (sign-in failures, the anonymous limit of CONTRACT §12; issue
 * 35): an IPv4 address alone, an IPv6 address by its /64 — one subscriber's network (RFC 6177, SLAAC),
 * where any of 2^64 addresses is the same client — written `2001:db8:0:1::/64`. An IPv4-mapped IPv6
 * address counts as its IPv4 address; anything that is no IP address (`unknown`, a test double's
 * socket) is its own unit. The one definition: the rate-limit module's `addressGroup` is this function.
 */
export function clientAddressGroup(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    return `${v6.parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(':')}::/64`;
  }
  return parsed.toString();
}

import { BlockList, isIP } from 'node:net';

/** Addresses a webhook may never reach unless private networks are allowed (CONTRACT §9). */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  forbidden.addSubnet(net, prefix, 'ipv6');
}

/** Loopback, private, link-local, unspecified, CGNAT, multicast or reserved — also as IPv4-mapped IPv6. */
export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return forbidden.check(ip, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return forbidden.check(mapped[1], 'ipv4');
    return forbidden.check(ip, 'ipv6');
  }
  return true;
}

export function validateEndpointUrl(raw: unknown): { ok: true; url: URL } | { ok: false; detail: string } {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return { ok: false, detail: 'must be an http or https URL of at most 2000 characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, detail: 'must be an http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, detail: 'must be an http or https URL' };
  if (url.username || url.password) return { ok: false, detail: 'must not carry credentials' };
  if (!url.hostname) return { ok: false, detail: 'must name a host' };
  return { ok: true, url };
}

/** The URL's host as an address literal, without IPv6 brackets, or null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

export function isLocalName(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost');
}

import { BlockList, isIP } from 'node:net';
import { type AllowedNetworks, isNeverReachable, NO_NETWORKS } from '../../../shared/domain/allowed-networks';

/*
 * CONTRACT §9, §2 WEBHOOK_ALLOWED_NETWORKS: webhook hosts on loopback, private or link-local addresses are
 * refused unless their range is listed there (link-local, metadata and unspecified addresses never). We
 * refuse every range the IANA special-purpose registries mark as not globally reachable, so that a webhook
 * cannot be aimed at the metadata service, the database or anything else inside the deployment. Unknown or
 * unparseable input is refused (fail closed).
 */

const forbiddenIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
] as const) {
  forbiddenIpv4.addSubnet(network, prefix, 'ipv4');
}

/** Ranges inside global unicast 2000::/3 that are still not a public host; everything outside 2000::/3 is refused. */
const forbiddenGlobalIpv6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 32], // Teredo: tunnels to an arbitrary IPv4 address
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID (deprecated)
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  forbiddenGlobalIpv6.addSubnet(network, prefix, 'ipv6');
}

/**
 * True when a webhook may not be delivered to `ip`: loopback, private, link-local, unspecified, CGNAT,
 * multicast, reserved or documentation space, and IPv6 forms that carry such an IPv4 address (IPv4-mapped
 * `::ffff:127.0.0.1`, IPv4-compatible, SIIT, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) — unless `allowed`
 * (WEBHOOK_ALLOWED_NETWORKS) lists it; link-local, metadata and unspecified addresses are refused whatever
 * it lists. An IPv4-mapped address is judged as its IPv4 address (the connection goes there); the other
 * forms that carry one are refused when it would be, whatever is listed. Anything that is not an address is
 * forbidden too.
 */
export function isForbiddenAddress(ip: string, allowed: AllowedNetworks = NO_NETWORKS): boolean {
  if (typeof ip !== 'string') return true;
  // A zone index (`fe80::1%eth0`) makes BlockList answer false; the address itself decides.
  const address = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  switch (isIP(address)) {
    case 4:
      return isNeverReachable(address) || (!allowed.has(address) && forbiddenIpv4.check(address, 'ipv4'));
    case 6:
      return isForbiddenIpv6(address, allowed);
    default:
      return true;
  }
}

function isForbiddenIpv6(ip: string, allowed: AllowedNetworks): boolean {
  const h = parseIpv6(ip);
  if (!h) return true;
  const embedded = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  const carried = (v4: string) => isForbiddenAddress(v4);

  if (zeros(0, 5) && h[5] === 0xffff) return isForbiddenAddress(embedded(h[6], h[7]), allowed); // ::ffff:0:0/96 mapped
  if (isNeverReachable(ip)) return true;
  if (allowed.has(ip)) return false;
  if (zeros(0, 6)) return true; // ::, ::1 and the deprecated IPv4-compatible ::/96
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return carried(embedded(h[6], h[7])); // SIIT ::ffff:0:0:0/96
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return carried(embedded(h[6], h[7])); // NAT64 64:ff9b::/96
  if (h[0] === 0x2002) return carried(embedded(h[1], h[2])); // 6to4 2002::/16
  if ((h[0] & 0xe000) !== 0x2000) return true; // outside global unicast 2000::/3: ULA, link-local, multicast, …
  return forbiddenGlobalIpv6.check(ip, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address already accepted by `isIP`, or null. */
function parseIpv6(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0) return null;
  const all = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

const MAX_URL_LENGTH = 2000;

/**
 * Why an endpoint URL is refused, by name: the English detail of the API's problem body (CONTRACT §9);
 * a page says the name in its own words (the developer console's catalogue, `reason.webhookUrl.<name>`).
 */
export const ENDPOINT_URL_PROBLEMS = {
  format: `must be an http or https URL of at most ${MAX_URL_LENGTH} characters`,
  scheme: 'must be an http or https URL',
  credentials: 'must not carry credentials',
  host: 'must name a host',
  private: 'must point to a public address, or into a network listed in WEBHOOK_ALLOWED_NETWORKS (never link-local or metadata addresses)',
} as const;
export type EndpointUrlProblem = keyof typeof ENDPOINT_URL_PROBLEMS;

/** Registration check of an endpoint URL (CONTRACT §9): an absolute http/https URL with a host and no credentials. */
export function validateEndpointUrl(raw: unknown): { ok: true; url: URL } | { ok: false; problem: EndpointUrlProblem; detail: string } {
  const refused = (problem: EndpointUrlProblem) => ({ ok: false as const, problem, detail: ENDPOINT_URL_PROBLEMS[problem] });
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL_LENGTH) return refused('format');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('scheme');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused('scheme');
  if (url.username !== '' || url.password !== '') return refused('credentials');
  if (url.hostname === '') return refused('host');
  return { ok: true, url };
}

/** The URL's host as an address literal, without IPv6 brackets, or null when it is a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/** `localhost` and its subdomains (RFC 6761: always loopback), with or without the trailing dot. */
export function isLocalName(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * True when the URL's host is forbidden without asking DNS: a forbidden address literal, or a localhost
 * name (RFC 6761: loopback whatever DNS says) unless both loopback addresses are allowed. A name that merely
 * resolves to a forbidden address is caught at delivery, on the resolved address.
 */
export function isLiteralForbiddenHost(url: URL, allowed: AllowedNetworks = NO_NETWORKS): boolean {
  if (isLocalName(url)) return isForbiddenAddress('127.0.0.1', allowed) || isForbiddenAddress('::1', allowed);
  const literal = literalAddress(url);
  return literal !== null && isForbiddenAddress(literal, allowed);
}

/**
 * Whether an endpoint's recorded answer (its status code) may be shown now (issue 35: "Last code" must not
 * read back what a forbidden address answered). When the address that answered is known, while that
 * address would be allowed now; for an answer recorded before addresses were (no `answeredFrom`), while
 * the endpoint's host is not forbidden by itself (isLiteralForbiddenHost) and every address it resolves to
 * now is allowed — a name that does not resolve now is not shown (fail closed).
 */
export async function answerShown(
  endpointUrl: string,
  answeredFrom: string | null,
  allowed: AllowedNetworks,
  resolve: (hostname: string) => Promise<Array<{ address: string }>>,
): Promise<boolean> {
  if (answeredFrom !== null) return !isForbiddenAddress(answeredFrom, allowed);
  const checked = validateEndpointUrl(endpointUrl);
  if (!checked.ok || isLiteralForbiddenHost(checked.url, allowed)) return false;
  if (literalAddress(checked.url) || isLocalName(checked.url)) return true;
  try {
    const addresses = await resolve(checked.url.hostname);
    return addresses.length > 0 && !addresses.some((a) => isForbiddenAddress(a.address, allowed));
  } catch {
    return false;
  }
}

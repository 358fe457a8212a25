import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

/** One CIDR range as configured (`10.0.0.0/8`, `::1/128`; a bare address is its own /32 or /128). */
export interface NetworkRange {
  /** as written in the configuration, trimmed */
  text: string;
  network: string;
  prefix: number;
  family: Family;
}

/**
 * CONTRACT §2 WEBHOOK_ALLOWED_NETWORKS: ranges no webhook may ever reach, whatever is listed — link-local
 * (cloud metadata services answer there), unspecified addresses (`0.0.0.0` reaches the host itself on
 * Linux) and the metadata services' other addresses. Listing a range that overlaps one of the first four
 * stops the start; a listed range that merely holds the last (a private IPv6 range, `fd00::/8`) is taken,
 * without that address.
 */
const NEVER_REACHABLE: ReadonlyArray<readonly [string, number, Family, string, 'range' | 'address']> = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified ("this network")', 'range'],
  ['169.254.0.0', 16, 'ipv4', 'link-local, cloud metadata', 'range'],
  ['::', 128, 'ipv6', 'unspecified', 'range'],
  ['fe80::', 10, 'ipv6', 'link-local', 'range'],
  ['fd00:ec2::254', 128, 'ipv6', 'cloud metadata', 'address'],
];

function blockListOf(ranges: ReadonlyArray<{ network: string; prefix: number; family: Family }>): { ipv4: BlockList; ipv6: BlockList } {
  const lists = { ipv4: new BlockList(), ipv6: new BlockList() };
  for (const r of ranges) lists[r.family].addSubnet(r.network, r.prefix, r.family);
  return lists;
}

const never = blockListOf(NEVER_REACHABLE.map(([network, prefix, family]) => ({ network, prefix, family })));

const familyOf = (address: string): Family | null => (({ 4: 'ipv4', 6: 'ipv6' }) as const)[isIP(address) as 4 | 6] ?? null;

/** True when `address` (an IP literal, no zone) is in a range no webhook may reach (NEVER_REACHABLE). */
export function isNeverReachable(address: string): boolean {
  const family = familyOf(address);
  return family === null || never[family].check(address, family);
}

/** `a.b.c.d/n` or `x::y/n` (or a bare address), else null. */
export function parseNetworkRange(raw: string): NetworkRange | null {
  const text = raw.trim();
  const [network, prefixText, extra] = text.split('/');
  const family = familyOf(network ?? '');
  if (family === null || extra !== undefined) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { text, network, prefix, family };
}

/**
 * Whether a range overlaps a never-reachable one: two CIDR ranges overlap exactly when one holds the
 * other's first address.
 */
export function overlapsNeverReachable(range: NetworkRange): string | null {
  const own = blockListOf([range])[range.family];
  for (const [network, prefix, family, why, kind] of NEVER_REACHABLE) {
    if (family !== range.family) continue;
    const theirs = blockListOf([{ network, prefix, family }])[family];
    if (theirs.check(range.network, family) || (kind === 'range' && own.check(network, family))) return `${network}/${prefix} (${why})`;
  }
  return null;
}

const loopback = blockListOf([
  { network: '127.0.0.0', prefix: 8, family: 'ipv4' },
  { network: '::1', prefix: 128, family: 'ipv6' },
]);

/** Whether every address of the range is loopback (127.0.0.0/8, ::1/128): this machine only. */
export function isLoopbackRange(range: NetworkRange): boolean {
  return range.prefix >= (range.family === 'ipv4' ? 8 : 128) && loopback[range.family].check(range.network, range.family);
}

/** The ranges webhook endpoints may reach besides public addresses (CONTRACT §2 WEBHOOK_ALLOWED_NETWORKS). */
export class AllowedNetworks {
  private readonly lists: { ipv4: BlockList; ipv6: BlockList };

  constructor(readonly ranges: readonly NetworkRange[]) {
    this.lists = blockListOf(ranges);
  }

  /** Whether `address` (an IP literal, no zone) is in a listed range and in none never reachable. */
  has(address: string): boolean {
    const family = familyOf(address);
    return family !== null && !isNeverReachable(address) && this.lists[family].check(address, family);
  }

  toString(): string {
    return this.ranges.map((r) => r.text).join(',');
  }
}

export const NO_NETWORKS = new AllowedNetworks([]);

/** CONTRACT §2: WEBHOOK_ALLOWED_NETWORKS's default on the embedded store (no DATABASE_URL): this machine only. */
export const EMBEDDED_STORE_NETWORKS = '127.0.0.0/8,::1/128';

/** Why a list of ranges is refused; the message follows the variable's name. */
export class NetworkListError extends Error {}

/**
 * WEBHOOK_ALLOWED_NETWORKS's value (CONTRACT §2, issue 43 finding 10): comma-separated CIDR ranges. A range
 * that overlaps a never-reachable one (link-local, cloud metadata, unspecified) is refused, naming it; so is
 * anything that is not a range.
 */
export function parseAllowedNetworks(raw: string): AllowedNetworks {
  const ranges: NetworkRange[] = [];
  for (const entry of raw.split(',')) {
    if (entry.trim() === '') continue;
    const range = parseNetworkRange(entry);
    if (!range) throw new NetworkListError(`must be comma-separated CIDR ranges (e.g. 10.0.0.0/8,fd00::/8), got "${entry.trim()}"`);
    const never = overlapsNeverReachable(range);
    if (never) throw new NetworkListError(`lists ${range.text}, which overlaps ${never}: no webhook may ever reach it`);
    ranges.push(range);
  }
  return new AllowedNetworks(ranges);
}

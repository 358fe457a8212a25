import ipaddr from 'ipaddr.js';

/**
 * The unit the anonymous limit counts (CONTRACT §12): an IPv4 address, or an IPv6 address's /64. One
 * IPv6 subscriber or host is handed a whole /64 (RFC 6177, SLAAC), so counting single IPv6 addresses
 * would give one client 2^64 budgets. An IPv4-mapped IPv6 address counts as its IPv4 address. A value
 * that is not an address (a test double's socket) is counted as it is.
 */
export function addressGroup(address: string): string {
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

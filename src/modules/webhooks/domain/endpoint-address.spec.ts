import { EMBEDDED_STORE_NETWORKS, NO_NETWORKS, parseAllowedNetworks } from '../../../shared/domain/allowed-networks';
import { isForbiddenAddress, isLiteralForbiddenHost, isLocalName, literalAddress, validateEndpointUrl } from './endpoint-address';

describe('isForbiddenAddress (CONTRACT §9)', () => {
  it.each([
    // IPv4 loopback, private, link-local, unspecified
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, top of 127/8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, top'],
    ['172.16.0.1', 'private 172.16/12, bottom'],
    ['172.31.255.255', 'private 172.16/12, top'],
    ['192.168.0.1', 'private 192.168/16'],
    ['192.168.255.255', 'private 192.168/16, top'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network 0/8'],
    ['100.64.0.1', 'CGNAT 100.64/10, bottom'],
    ['100.127.255.255', 'CGNAT 100.64/10, top'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation TEST-NET-1'],
    ['198.51.100.10', 'documentation TEST-NET-2'],
    ['203.0.113.10', 'documentation TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking, top'],
    ['192.88.99.1', '6to4 relay anycast'],
    // IPv6
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, uncompressed'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['FE80::1', 'link-local, upper case'],
    ['febf:ffff::1', 'link-local, top of fe80::/10'],
    ['fe80::1%eth0', 'link-local with a zone index'],
    ['fe80::1%25', 'link-local with a numeric zone index'],
    ['2001:db8::1%eth0', 'documentation with a zone index'],
    ['fec0::1', 'site-local (deprecated)'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456:789a::1', 'unique local fd00::/8'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast, site'],
    ['100::1', 'discard prefix'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'ORCHID'],
    // IPv6 forms carrying a forbidden IPv4 address
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::FFFF:127.0.0.1', 'IPv4-mapped loopback, upper case'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped loopback, uncompressed'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated, never routed)'],
    ['::ffff:0:127.0.0.1', 'SIIT IPv4-translated loopback'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1, hex'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    // not an address at all: fail closed
    ['not-an-ip', 'a name'],
    ['localhost', 'a name, even this one'],
    ['', 'empty'],
    ['127.1', 'shorthand IPv4'],
    ['2130706433', 'decimal IPv4'],
    ['0x7f000001', 'hex IPv4'],
    [' 8.8.8.8', 'leading space'],
    ['8.8.8.8/32', 'a subnet'],
    ['[::1]', 'bracketed'],
    ['1:2:3:4:5:6:7:8:9', 'too many groups'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ['8.8.8.8', 'public DNS'],
    ['1.1.1.1', 'public DNS'],
    ['93.184.215.14', 'a public host'],
    ['9.255.255.255', 'just below 10/8'],
    ['11.0.0.0', 'just above 10/8'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['192.167.255.255', 'just below 192.168/16'],
    ['192.169.0.1', 'just above 192.168/16'],
    ['100.63.255.255', 'just below CGNAT'],
    ['100.128.0.1', 'just above CGNAT'],
    ['126.255.255.255', 'just below loopback'],
    ['128.0.0.1', 'just above loopback'],
    ['169.253.255.255', 'just below link-local'],
    ['223.255.255.255', 'just below multicast'],
    ['2001:4860:4860::8888', 'public IPv6 DNS'],
    ['2606:4700:4700::1111', 'public IPv6 DNS'],
    ['2a00:1450:4001:82b::200e', 'a public IPv6 host'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['::ffff:808:808', 'IPv4-mapped public, hex'],
    ['64:ff9b::8.8.8.8', 'NAT64 of a public address'],
    ['2002:808:808::1', '6to4 of a public address'],
  ])('allows %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('validateEndpointUrl', () => {
  it.each([
    'https://example.com/hook',
    'http://example.com:8080/a?b=c',
    'https://hooks.example.com/a/b/c?x=1&y=2',
    'HTTPS://EXAMPLE.COM/hook',
    'https://[2001:4860:4860::8888]/hook',
    'http://8.8.8.8/hook',
    'https://xn--bcher-kva.example/hook',
  ])('accepts %s', (raw) => {
    const result = validateEndpointUrl(raw);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url).toBeInstanceOf(URL);
  });

  it('answers the parsed URL', () => {
    const result = validateEndpointUrl('https://Example.COM:443/hook?q=1');
    expect(result).toEqual({ ok: true, url: new URL('https://example.com/hook?q=1') });
  });

  // Address checks are not this function's job: it answers the shape of the URL only.
  it('leaves loopback literals to the address check', () => {
    expect(validateEndpointUrl('http://127.0.0.1/hook').ok).toBe(true);
  });

  it.each([
    ['ftp://example.com/hook', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['data:text/plain,hi', 'http or https'],
    ['ws://example.com/hook', 'http or https'],
    ['gopher://example.com/', 'http or https'],
    ['example.com/hook', 'http or https'],
    ['/hook', 'http or https'],
    ['https://', 'http or https'],
    ['http://exa mple.com/', 'http or https'],
    ['https://[::1/', 'http or https'],
    ['', 'at most 2000'],
    ['https://user:pass@example.com/hook', 'credentials'],
    ['https://user@example.com/hook', 'credentials'],
    ['https://:pass@example.com/hook', 'credentials'],
  ])('refuses %s', (raw, detail) => {
    const result = validateEndpointUrl(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).toContain(detail);
  });

  it.each([42, null, undefined, {}, ['https://example.com'], new URL('https://example.com')])('refuses the non-string %p', (raw) => {
    expect(validateEndpointUrl(raw).ok).toBe(false);
  });

  it('accepts up to 2000 characters', () => {
    const prefix = 'https://example.com/';
    expect(validateEndpointUrl(prefix + 'x'.repeat(2000 - prefix.length)).ok).toBe(true);
    expect(validateEndpointUrl(prefix + 'x'.repeat(2001 - prefix.length))).toEqual({
      ok: false,
      problem: 'format',
      detail: 'must be an http or https URL of at most 2000 characters',
    });
  });
});

describe('isLiteralForbiddenHost', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'http://127.0.0.1./hook',
    'http://2130706433/hook', // WHATWG URL normalizes to 127.0.0.1
    'http://0x7f.1/hook',
    'http://0177.0.0.1/hook',
    'http://0/hook',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[0:0:0:0:0:ffff:7f00:1]/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://localhost/hook',
    'http://LOCALHOST:3000/hook',
    'http://localhost./hook',
    'http://api.localhost/hook',
  ])('%s is forbidden without asking DNS', (raw) => {
    expect(isLiteralForbiddenHost(new URL(raw))).toBe(true);
  });

  it.each([
    'https://example.com/hook',
    'https://localhost.example.com/hook',
    'https://mylocalhost/hook',
    'https://127.0.0.1.nip.io/hook', // a name: judged on its resolved address at delivery
    'http://8.8.8.8/hook',
    'http://[2001:4860:4860::8888]/hook',
    'http://[::ffff:8.8.8.8]/hook',
  ])('%s is not forbidden by its literal host', (raw) => {
    expect(isLiteralForbiddenHost(new URL(raw))).toBe(false);
  });
});

describe('literalAddress and isLocalName', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://[::1]:8080/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://example.com/', null],
  ])('literalAddress(%s) is %p', (raw, expected) => {
    expect(literalAddress(new URL(raw))).toBe(expected);
  });

  it.each([
    ['http://localhost/', true],
    ['http://a.b.localhost./', true],
    ['http://localhost.example/', false],
  ])('isLocalName(%s) is %p', (raw, expected) => {
    expect(isLocalName(new URL(raw))).toBe(expected);
  });
});

describe('isForbiddenAddress with WEBHOOK_ALLOWED_NETWORKS (CONTRACT §2, issue 43 finding 10)', () => {
  const tens = parseAllowedNetworks('10.0.0.0/8,fd00::/8');
  const local = parseAllowedNetworks(EMBEDDED_STORE_NETWORKS);

  it.each([
    ['10.1.2.3', tens, false],
    ['::ffff:10.1.2.3', tens, false],
    ['fd12::1', tens, false],
    ['192.168.1.1', tens, true],
    ['127.0.0.1', tens, true],
    // the forms that carry an IPv4 address to somewhere else (translators, tunnels) are judged without the list
    ['64:ff9b::a01:203', tens, true],
    ['2002:a01:203::1', tens, true],
    // metadata inside a listed range stays unreachable
    ['fd00:ec2::254', tens, true],
    ['127.0.0.1', local, false],
    ['127.9.9.9', local, false],
    ['::1', local, false],
    ['::ffff:127.0.0.1', local, false],
    ['::', local, true],
    ['0.0.0.0', local, true],
    ['10.1.2.3', local, true],
    ['8.8.8.8', local, false],
  ])('%s → forbidden %p', (address, allowed, forbidden) => {
    expect(isForbiddenAddress(address, allowed)).toBe(forbidden);
  });

  it('takes localhost only when both loopback addresses are listed', () => {
    expect(isLiteralForbiddenHost(new URL('http://localhost:9/x'), local)).toBe(false);
    expect(isLiteralForbiddenHost(new URL('http://localhost:9/x'), parseAllowedNetworks('127.0.0.0/8'))).toBe(true);
    expect(isLiteralForbiddenHost(new URL('http://localhost:9/x'), NO_NETWORKS)).toBe(true);
  });
});

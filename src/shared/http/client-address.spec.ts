import { clientAddressGroup } from './client-address';

describe('clientAddressGroup (sign-in failures per /64, issue 35)', () => {
  it('counts every address of one IPv6 /64 as one client, in any notation', () => {
    expect(clientAddressGroup('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientAddressGroup('2001:db8:0:1:ffff:ffff:ffff:fffe')).toBe('2001:db8:0:1::/64');
    expect(clientAddressGroup('2001:0DB8:0000:0001:0000:0000:0000:0009')).toBe('2001:db8:0:1::/64');
    expect(clientAddressGroup('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(clientAddressGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps an IPv4 address (mapped or not) and anything else as it is', () => {
    expect(clientAddressGroup('203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddressGroup('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddressGroup('unknown')).toBe('unknown');
  });
});

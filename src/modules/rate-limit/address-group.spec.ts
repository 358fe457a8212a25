import { addressGroup } from './address-group';

describe('the unit of the anonymous limit (CONTRACT §12: IPv6 per /64)', () => {
  it('counts IPv6 addresses of one /64 together, whatever their spelling', () => {
    expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:DB8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps neighbouring /64s apart', () => {
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('counts IPv4 and IPv4-mapped addresses one by one', () => {
    expect(addressGroup('203.0.113.5')).toBe('203.0.113.5');
    expect(addressGroup('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressGroup('203.0.113.6')).toBe('203.0.113.6');
  });

  it('counts a value that is not an address as it is', () => {
    expect(addressGroup('unknown')).toBe('unknown');
  });
});

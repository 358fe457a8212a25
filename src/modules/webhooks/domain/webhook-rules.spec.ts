import { isForbiddenAddress, validateEndpointUrl } from './endpoint-address';
import { MAX_ATTEMPTS, nextAttemptDelayMs, RETRY_DELAYS_MS } from './retry-schedule';

describe('isForbiddenAddress (CONTRACT §9)', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('refuses %s', (ip) => expect(isForbiddenAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows %s', (ip) =>
    expect(isForbiddenAddress(ip)).toBe(false),
  );
});

describe('validateEndpointUrl', () => {
  it.each(['https://example.com/hook', 'http://example.com:8080/a?b=c'])('accepts %s', (u) => expect(validateEndpointUrl(u).ok).toBe(true));
  it.each(['ftp://example.com', 'example.com/hook', '', 'https://u:p@example.com', 42, null, 'x'.repeat(2001)])('refuses %p', (u) =>
    expect(validateEndpointUrl(u).ok).toBe(false),
  );
});

describe('retry schedule (Standard Webhooks)', () => {
  const expected = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up', () => {
    expect([...RETRY_DELAYS_MS]).toEqual(expected);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(nextAttemptDelayMs(10)).toBeNull();
  });

  it('jitters each delay within ±10 %', () => {
    expected.forEach((base, i) => {
      expect(nextAttemptDelayMs(i + 1, () => 0)).toBe(Math.round(base * 0.9));
      expect(nextAttemptDelayMs(i + 1, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.1));
      const d = nextAttemptDelayMs(i + 1)!;
      expect(d).toBeGreaterThanOrEqual(base * 0.9);
      expect(d).toBeLessThanOrEqual(base * 1.1);
    });
  });
});

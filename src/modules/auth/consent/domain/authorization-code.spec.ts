import { codeExpired } from './authorization-code';

/** A clock moved by hand, as the service's injectable clock is in e2e tests. */
class ManualClock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

describe('authorization code lifetime (CONTRACT §11: expires 60 s after issue)', () => {
  it('is usable until just before 60 s, expired at 60 s and after', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
    const issuedAt = clock.now();
    expect(codeExpired(issuedAt, clock.now())).toBe(false);
    clock.advance(59_999);
    expect(codeExpired(issuedAt, clock.now())).toBe(false);
    clock.advance(1);
    expect(codeExpired(issuedAt, clock.now())).toBe(true);
    clock.advance(3_600_000);
    expect(codeExpired(issuedAt, clock.now())).toBe(true);
  });
});

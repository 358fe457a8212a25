import { failuresInWindow, isLocked, lockoutAfterFailure, normalizeEmail, retryAfterSeconds, slowdownMs } from './sign-in-lockout';

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const at = (minutes: number, seconds = 0) => new Date(T0 + minutes * 60_000 + seconds * 1000);

describe('per-email sign-in lockout (CONTRACT §11: 5 failures in 15 minutes → 15 minutes)', () => {
  it('locks on the fifth failure within 15 minutes, for 15 minutes from it', () => {
    const four = [at(0), at(1), at(2), at(3)];
    expect(lockoutAfterFailure(four, at(3))).toBeNull();
    expect(lockoutAfterFailure([...four, at(14, 59)], at(14, 59))).toEqual(at(29, 59));
  });

  it('does not count a failure 15 minutes old or older', () => {
    const failures = [at(0), at(5), at(6), at(7), at(15)];
    expect(failuresInWindow(failures, at(15))).toBe(4);
    expect(lockoutAfterFailure(failures, at(15))).toBeNull();
    expect(failuresInWindow(failures, at(14, 59))).toBe(4); // the failure at 15:00 lies in the future
  });

  it('is locked until the end, not at it; Retry-After counts whole seconds, at least 1', () => {
    const until = at(30);
    expect(isLocked(until, at(29, 59))).toBe(true);
    expect(isLocked(until, at(30))).toBe(false);
    expect(isLocked(null, at(0))).toBe(false);
    expect(retryAfterSeconds(until, at(15))).toBe(900);
    expect(retryAfterSeconds(until, new Date(until.getTime() - 1))).toBe(1);
    expect(retryAfterSeconds(until, at(31))).toBe(1);
  });

  it('counts an email in any case and with surrounding spaces as one', () => {
    expect(normalizeEmail('  Ejer@Example.DK ')).toBe('ejer@example.dk');
  });

  it("slows an email's sign-ins once 10 failures from all addresses are on record: 250 ms more each, at most 3 s", () => {
    expect(slowdownMs(0)).toBe(0);
    expect(slowdownMs(9)).toBe(0);
    expect(slowdownMs(10)).toBe(250);
    expect(slowdownMs(13)).toBe(1000);
    expect(slowdownMs(21)).toBe(3000);
    expect(slowdownMs(500)).toBe(3000);
  });
});

import { MAX_ATTEMPTS, nextAttemptDelayMs, RETRY_DELAYS_MS } from './retry-schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('retry schedule (CONTRACT §9, Standard Webhooks)', () => {
  const schedule: Array<[failedAttempts: number, baseMs: number]> = [
    [1, 5 * SECOND],
    [2, 5 * MINUTE],
    [3, 30 * MINUTE],
    [4, 2 * HOUR],
    [5, 5 * HOUR],
    [6, 10 * HOUR],
    [7, 14 * HOUR],
    [8, 20 * HOUR],
    [9, 24 * HOUR],
  ];

  it('allows ten attempts: the first and nine retries', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    expect(RETRY_DELAYS_MS).toEqual(schedule.map(([, base]) => base));
  });

  describe.each(schedule)('after %i failed attempt(s)', (failedAttempts, base) => {
    it('waits the base delay at the middle of the jitter band', () => {
      expect(nextAttemptDelayMs(failedAttempts, () => 0.5)).toBe(base);
    });

    it('waits 10 % less at the bottom of the band', () => {
      expect(nextAttemptDelayMs(failedAttempts, () => 0)).toBe(Math.round(base * 0.9));
    });

    it('waits at most 10 % more at the top of the band', () => {
      const top = nextAttemptDelayMs(failedAttempts, () => 0.999_999_999)!;
      expect(top).toBeGreaterThan(base * 1.099);
      expect(top).toBeLessThanOrEqual(Math.round(base * 1.1));
    });

    it('stays within ±10 % with Math.random', () => {
      for (let i = 0; i < 500; i++) {
        const delay = nextAttemptDelayMs(failedAttempts)!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
        expect(Number.isInteger(delay)).toBe(true);
      }
    });

    it('stays within ±10 % even if the random source misbehaves', () => {
      expect(nextAttemptDelayMs(failedAttempts, () => -3)).toBe(Math.round(base * 0.9));
      expect(nextAttemptDelayMs(failedAttempts, () => 7)).toBe(Math.round(base * 1.1));
    });
  });

  it('actually jitters: Math.random does not give one value for every delivery', () => {
    const delays = new Set(Array.from({ length: 50 }, () => nextAttemptDelayMs(4)));
    expect(delays.size).toBeGreaterThan(1);
  });

  it.each([10, 11, 1000])('gives up after %i failed attempts', (failedAttempts) => {
    expect(nextAttemptDelayMs(failedAttempts, () => 0.5)).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('gives no delay for the nonsense count %p', (failedAttempts) => {
    expect(nextAttemptDelayMs(failedAttempts, () => 0.5)).toBeNull();
  });
});

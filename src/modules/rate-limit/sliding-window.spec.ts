import { decide } from './sliding-window';

describe('sliding one-minute window (CONTRACT §12)', () => {
  it('allows up to the limit within a fresh minute and counts down', () => {
    expect(decide(10, { previous: 0, current: 1, elapsed: 0.2 })).toEqual({ allowed: true, remaining: 9, secondsUntilFree: 0 });
    // the 10 calls keep counting into the next minute, weighted: free again 6 s into it (48 + 6)
    expect(decide(10, { previous: 0, current: 10, elapsed: 0.2 })).toEqual({ allowed: true, remaining: 0, secondsUntilFree: 54 });
  });

  it('refuses the call over the limit without counting it', () => {
    expect(decide(10, { previous: 0, current: 11, elapsed: 0.2 })).toEqual({ allowed: false, remaining: 0, secondsUntilFree: 54 });
  });

  it('weights the previous minute by the part still inside the window', () => {
    // 10 calls last minute, 30 s in: 5 of them still count, so 5 more are allowed
    expect(decide(10, { previous: 10, current: 5, elapsed: 0.5 })).toEqual({ allowed: true, remaining: 0, secondsUntilFree: 6 });
    expect(decide(10, { previous: 10, current: 6, elapsed: 0.5 }).allowed).toBe(false);
  });

  it('is never less than one second while nothing is left', () => {
    const d = decide(600, { previous: 600, current: 600, elapsed: 0.9999 });
    expect(d.allowed).toBe(false);
    expect(d.secondsUntilFree).toBeGreaterThanOrEqual(1);
  });
});

/** One minute: the window of CONTRACT §12 (`w=60`). */
export const WINDOW_MS = 60_000;

export interface WindowState {
  /** calls counted in the previous fixed minute */
  previous: number;
  /** calls counted in the current fixed minute, this call included */
  current: number;
  /** how far into the current minute we are, 0 ≤ elapsed < 1 */
  elapsed: number;
}

export interface WindowDecision {
  allowed: boolean;
  /** calls left now (the `r` of the RateLimit header) */
  remaining: number;
  /** whole seconds until a call is free again: 0 while calls are left, else at least 1 */
  secondsUntilFree: number;
}

/**
 * A sliding one-minute window, estimated from two fixed minutes (the "sliding window counter"): the
 * previous minute's count weighted by the part of it still inside the window, plus the current
 * minute's. A call is allowed when the estimate, the call included, is at most `limit`; a refused
 * call is not counted (the caller gives its point back), so a client that waits `t` seconds gets in.
 */
export function decide(limit: number, s: WindowState): WindowDecision {
  const estimate = s.previous * (1 - s.elapsed) + s.current;
  const allowed = estimate <= limit;
  const current = allowed ? s.current : s.current - 1;
  const counted = s.previous * (1 - s.elapsed) + current;
  const remaining = Math.max(0, Math.floor(limit - counted));
  if (remaining > 0) return { allowed, remaining, secondsUntilFree: 0 };
  return { allowed, remaining, secondsUntilFree: Math.max(1, Math.ceil(msUntilFree(limit, s.previous, current, s.elapsed) / 1000)) };
}

/** Milliseconds until one more call fits: previous·(1 − e′) + current + 1 ≤ limit. */
function msUntilFree(limit: number, previous: number, current: number, elapsed: number): number {
  if (current + 1 <= limit && previous > 0) {
    const e = 1 - (limit - current - 1) / previous;
    if (e < 1) return Math.max(0, (e - elapsed) * WINDOW_MS);
  }
  // in the next minute this one's calls are the weighted previous ones
  const next = current + 1 <= limit ? 0 : 1 - (limit - 1) / current;
  return (1 - elapsed) * WINDOW_MS + Math.max(0, next) * WINDOW_MS;
}

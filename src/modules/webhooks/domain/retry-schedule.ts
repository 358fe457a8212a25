/**
 * CONTRACT §9: after a failed attempt, retries follow the Standard Webhooks schedule, each ±10 %.
 * Attempt 1 is immediate; these are the delays before attempts 2…10.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, // 5 s
  5 * 60_000, // 5 min
  30 * 60_000, // 30 min
  2 * 3_600_000, // 2 h
  5 * 3_600_000, // 5 h
  10 * 3_600_000, // 10 h
  14 * 3_600_000, // 14 h
  20 * 3_600_000, // 20 h
  24 * 3_600_000, // 24 h
];

/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Jitter spreads retries of many deliveries that failed together (one receiver outage) over ±10 %. */
const JITTER = 0.1;

/**
 * The delay before the next attempt once `failedAttempts` attempts have failed (1 after the first
 * attempt failed), or null to give up: after attempt `MAX_ATTEMPTS`, or for a count that is not a
 * positive integer. `random` returns values in [0, 1), like Math.random.
 */
export function nextAttemptDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) return null;
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  const r = Math.min(Math.max(random(), 0), 1); // a misbehaving source must not escape the ±10 % band
  return Math.round(base * (1 - JITTER + 2 * JITTER * r));
}

/**
 * CONTRACT §9: after a failed attempt, retries follow the Standard Webhooks schedule, each ±10 %.
 * Attempt 1 is immediate; these are the delays before attempts 2…10.
 */
export const RETRY_DELAYS_MS = [
  5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 14 * 3_600_000, 20 * 3_600_000, 24 * 3_600_000,
] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The delay before the next attempt after `failedAttempts` failures, or null to give up. */
export function nextAttemptDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

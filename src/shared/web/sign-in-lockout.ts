/**
 * CONTRACT §11 (v4): after 5 failed sign-ins for one email from one client address within 15 minutes,
 * that email is refused from that address for 15 minutes. Each attempt counts as a failure from the
 * moment it starts (before its password is checked) until it succeeds.
 */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LOCKOUT_MS = 15 * 60_000;

/**
 * When failures for one email pile up from many addresses, sign-ins for it are slowed, never refused
 * (CONTRACT §11: a stranger elsewhere cannot lock the owner out): from the 10th failure within the
 * window on, each attempt waits 250 ms more, at most 3 s.
 */
export const SIGN_IN_SLOW_AFTER = 10;
export const SIGN_IN_SLOW_STEP_MS = 250;
export const SIGN_IN_SLOW_MAX_MS = 3_000;

/** The failures that still count at `now`: those less than 15 minutes old. */
export function failuresInWindow(failedAt: readonly Date[], now: Date): number {
  return failedAt.filter((t) => now.getTime() - t.getTime() < SIGN_IN_WINDOW_MS && t.getTime() <= now.getTime()).length;
}

/** When the pair is locked after a failure at `now` with these failures on record (the new one included); null: not locked. */
export function lockoutAfterFailure(failedAt: readonly Date[], now: Date): Date | null {
  return failuresInWindow(failedAt, now) >= SIGN_IN_MAX_FAILURES ? new Date(now.getTime() + SIGN_IN_LOCKOUT_MS) : null;
}

/** How long an attempt waits, given the email's failures within the window from every address. */
export function slowdownMs(failuresOfEmail: number): number {
  if (failuresOfEmail < SIGN_IN_SLOW_AFTER) return 0;
  return Math.min(SIGN_IN_SLOW_MAX_MS, (failuresOfEmail - SIGN_IN_SLOW_AFTER + 1) * SIGN_IN_SLOW_STEP_MS);
}

export function isLocked(lockedUntil: Date | null, now: Date): boolean {
  return lockedUntil !== null && lockedUntil.getTime() > now.getTime();
}

/** Retry-After in whole seconds, at least 1. */
export function retryAfterSeconds(lockedUntil: Date, now: Date): number {
  return Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
}

/** The lockout is per email, compared without regard to case and surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

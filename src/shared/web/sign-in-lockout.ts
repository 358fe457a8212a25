/** CONTRACT §11: after 5 failed sign-ins for one email within 15 minutes, that email is refused for 15 minutes. */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LOCKOUT_MS = 15 * 60_000;

/** The failures that still count at `now`: those less than 15 minutes old. */
export function failuresInWindow(failedAt: readonly Date[], now: Date): number {
  return failedAt.filter((t) => now.getTime() - t.getTime() < SIGN_IN_WINDOW_MS && t.getTime() <= now.getTime()).length;
}

/** When the email is locked after a failure at `now` with these failures on record (the new one included); null: not locked. */
export function lockoutAfterFailure(failedAt: readonly Date[], now: Date): Date | null {
  return failuresInWindow(failedAt, now) >= SIGN_IN_MAX_FAILURES ? new Date(now.getTime() + SIGN_IN_LOCKOUT_MS) : null;
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

/** CONTRACT §11: a code expires 60 s after it is issued. */
export const CODE_LIFETIME_MS = 60_000;

/** True once 60 s have passed since issue: at exactly 60 s the code is no longer accepted. */
export function codeExpired(issuedAt: Date, now: Date): boolean {
  return now.getTime() - issuedAt.getTime() >= CODE_LIFETIME_MS;
}

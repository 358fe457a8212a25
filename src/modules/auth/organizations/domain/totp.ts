import { HOTP, Secret, TOTP } from 'otpauth';

/** CONTRACT §8: RFC 6238 with SHA-1, 6 digits, 30 s — what every authenticator app defaults to. */
const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
const CODE_SHAPE = /^[0-9]{6}$/;
/** RFC 4226 §4 R6: a shared secret of at least 128 bits; ours are 160 (RFC 4226's recommendation). */
const MIN_SECRET_BYTES = 16;
const SECRET_BYTES = 20;

export type TotpVerification = { ok: true; step: number } | { ok: false };

function decodeSecret(secretBase32: string): Secret {
  // A bad stored secret is a defect, not a wrong code: fail loudly rather than refuse every owner.
  const secret = Secret.fromBase32(secretBase32);
  if (secret.bytes.length < MIN_SECRET_BYTES) throw new RangeError('the TOTP secret is too short');
  return secret;
}

function stepAt(nowMs: number): number {
  if (!Number.isFinite(nowMs) || nowMs < 0) throw new RangeError('nowMs must be a finite, non-negative time');
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs });
}

/**
 * The enrolment URI authenticator apps read (Key Uri Format, written by otpauth): the issuer is the
 * service's name (SERVICE_NAME), the label the account's email; SHA-1, 6 digits, 30 s.
 */
export function totpUri(issuer: string, account: string, secretBase32: string): string {
  return new TOTP({ issuer, label: account, secret: decodeSecret(secretBase32), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS }).toString();
}

/** A new owner secret for enrolment: 20 random bytes, RFC 4648 base32 without padding. */
export function generateTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/**
 * The aal2 check of CONTRACT §8. A code is accepted in the current 30 s step or one either side
 * (clock drift, RFC 6238 §5.2), and only for a step later than `lastAcceptedStep`: once step N was
 * accepted for an owner, no code of step N or earlier is accepted again (RFC 6238 §5.2 replay rule).
 * Anything but a string of exactly six ASCII digits is refused before any HMAC is computed.
 *
 * The returned `step` is what the caller stores as the owner's new `lastAcceptedStep`, and only when
 * the whole call succeeds (CONTRACT §8: the code is used up only by a call that succeeds). Steps are
 * tried latest first, so that a code which happens to match two steps of the window is recorded under
 * the later one and cannot be replayed within the window.
 */
export function verifyTotp(secretBase32: string, code: unknown, nowMs: number, lastAcceptedStep: number | null): TotpVerification {
  const current = stepAt(nowMs);
  const secret = decodeSecret(secretBase32);
  if (typeof code !== 'string' || !CODE_SHAPE.test(code)) return { ok: false };
  for (const step of [current + 1, current, current - 1]) {
    if (step < 0 || (lastAcceptedStep !== null && step <= lastAcceptedStep)) continue;
    // window 0: one step at a time, so the replay rule decides which steps may match at all
    const delta = HOTP.validate({ token: code, secret, algorithm: ALGORITHM, digits: DIGITS, counter: step, window: 0 });
    if (delta !== null) return { ok: true, step };
  }
  return { ok: false };
}

/** The code an authenticator would show at `nowMs`; for fixtures and tests, never sent to a client. */
export function totpCodeAt(secretBase32: string, nowMs: number): string {
  const counter = stepAt(nowMs);
  return HOTP.generate({ secret: decodeSecret(secretBase32), algorithm: ALGORITHM, digits: DIGITS, counter });
}

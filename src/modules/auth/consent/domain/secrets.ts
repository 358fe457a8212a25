import { createHash, randomBytes } from 'node:crypto';
import { randomBase62 } from '../../access';

/** CONTRACT §10: `hcs_` + 40 base62 characters, shown once. */
export function generateClientSecret(): string {
  return `hcs_${randomBase62(40)}`;
}

const CLIENT_SECRET_SHAPE = /^hcs_[0-9A-Za-z]{40}$/;

/** Shaped as `generateClientSecret` makes them: only such a secret is worth a look-up over the anonymous limit (CONTRACT §12). */
export function isWellFormedClientSecret(secret: string): boolean {
  return CLIENT_SECRET_SHAPE.test(secret);
}

/** An authorization code or session id: 256 random bits, URL-safe. */
export function generateOpaque(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Client secrets, codes and session ids carry ≥ 238 random bits, so an unsalted SHA-256 is enough and
 * keeps the look-up one indexed equality (as for access tokens, CONTRACT §8).
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

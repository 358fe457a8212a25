import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Environment } from '../../../../shared/domain/caller-context';

export type ParsedAccessToken = { ok: true; environment: Environment } | { ok: false; reason: 'malformed' };

const PREFIX_OF: Readonly<Record<Environment, string>> = { sandbox: 'hsk_', production: 'hat_' };
const PREFIX_LENGTH = 4;
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const TOKEN_LENGTH = PREFIX_LENGTH + RANDOM_LENGTH + CHECKSUM_LENGTH;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_SHAPE = /^[0-9A-Za-z]+$/;
/** The largest multiple of 62 that fits in a byte: bytes at or above it are dropped, not folded. */
const UNBIASED_BYTE_LIMIT = 256 - (256 % 62);

/**
 * The prefix alone decides the environment, so a token sent to the other environment's path is told
 * apart (401 `token_environment_mismatch`) before its checksum is looked at (CONTRACT §3 step 2).
 */
export function environmentOfPrefix(raw: string): Environment | null {
  if (raw.startsWith(PREFIX_OF.sandbox)) return 'sandbox';
  if (raw.startsWith(PREFIX_OF.production)) return 'production';
  return null;
}

/**
 * CONTRACT §8: CRC-32 (IEEE, zlib's `crc32`, present in Node ≥ 20.15; package.json requires ≥ 20.19)
 * of the random part's ASCII, written in base62 `0-9A-Za-z`, most significant digit first, left-padded
 * with `0` to 6 characters (62^6 > 2^32, so six always suffice). Exported so that fixtures and the
 * known-vector test can reach it; it is not a secret.
 */
export function accessTokenChecksum(randomPart: string): string {
  let value = crc32(randomPart) >>> 0;
  const digits = new Array<string>(CHECKSUM_LENGTH);
  for (let i = CHECKSUM_LENGTH - 1; i >= 0; i--) {
    digits[i] = BASE62[value % 62];
    value = Math.floor(value / 62);
  }
  return digits.join('');
}

/**
 * Uniform base62 from a CSPRNG by rejection sampling: `byte % 62` on every byte would make the first
 * eight characters a quarter more likely than the rest (256 = 4·62 + 8).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length - out.length + 8)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A new access token (CONTRACT §8): prefix, 40 base62 characters of randomness (≈238 bits), checksum.
 * Shown to its holder once; only `hashAccessToken` of it is stored.
 */
export function generateAccessToken(env: Environment): string {
  const randomPart = randomBase62(RANDOM_LENGTH);
  return PREFIX_OF[env] + randomPart + accessTokenChecksum(randomPart);
}

/**
 * Shape and checksum, no I/O: a mistyped or truncated token is refused before any database look-up
 * (CONTRACT §8). An unknown prefix, a wrong length or character, or a wrong checksum are all
 * `malformed` (401 `invalid_token`). `ok` says nothing about whether the token was ever issued.
 */
export function parseAccessToken(raw: string): ParsedAccessToken {
  const environment = environmentOfPrefix(raw);
  if (environment === null || raw.length !== TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const body = raw.slice(PREFIX_LENGTH);
  if (!BODY_SHAPE.test(body)) return { ok: false, reason: 'malformed' };
  const randomPart = body.slice(0, RANDOM_LENGTH);
  if (accessTokenChecksum(randomPart) !== body.slice(RANDOM_LENGTH)) return { ok: false, reason: 'malformed' };
  return { ok: true, environment };
}

/**
 * CONTRACT §8: only a SHA-256 hash of a token is stored. A plain, unsalted hash is enough because the
 * token carries ≈238 random bits, and it keeps the look-up a single indexed equality.
 */
export function hashAccessToken(raw: string): string {
  // one-shot: no Hash object per request (Node's crypto.hash, for small inputs at hand)
  return hash('sha256', raw, 'hex');
}

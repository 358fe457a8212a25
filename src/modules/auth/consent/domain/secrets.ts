import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TAG_CONTEXT, type SecretBox } from '../../../../shared/crypto/secret-box';
import { randomBase62 } from '../../access';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A client secret is `hcs_` + 40 base62 characters (CONTRACT §10): 28 random, then 12 of a MAC over the client id and them. */
const RANDOM_CHARS = 28;
const MAC_CHARS = 12;
const CLIENT_SECRET_SHAPE = /^hcs_[0-9A-Za-z]{40}$/;

function macText(box: SecretBox, clientId: string, random: string): string[] {
  return box
    .macs(`${clientId.toLowerCase()}|${random}`, TAG_CONTEXT.clientSecret)
    .map((mac) => [...mac.subarray(0, MAC_CHARS)].map((b) => BASE62[b % 62]).join(''));
}

/**
 * CONTRACT §10: `hcs_` + 40 base62 characters, shown once. Its last 12 are a MAC (SECRETS_KEY) over the client
 * id and its first 28, so that a secret this service issued for this client is told from a guess without a
 * look-up (CONTRACT §20: over the anonymous limit, only a registered client is looked up).
 */
export function generateClientSecret(box: SecretBox, clientId: string): string {
  const random = randomBase62(RANDOM_CHARS);
  return `hcs_${random}${macText(box, clientId, random)[0]}`;
}

/**
 * Whether the secret carries this service's MAC for this client id — issued by it, for it (under any listed key
 * version). Says nothing of whether it is the client's current secret: the look-up decides that.
 */
export function isIssuedClientSecret(box: SecretBox, clientId: string, secret: string): boolean {
  if (!CLIENT_SECRET_SHAPE.test(secret)) return false;
  const given = Buffer.from(secret.slice(4 + RANDOM_CHARS));
  return macText(box, clientId, secret.slice(4, 4 + RANDOM_CHARS)).some((mac) => timingSafeEqual(Buffer.from(mac), given));
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

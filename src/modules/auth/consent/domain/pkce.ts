import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1/§4.2: 43–128 characters of [A-Z] [a-z] [0-9] "-" "." "_" "~". */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const isPkceValue = (v: unknown): v is string => typeof v === 'string' && PKCE_VALUE.test(v);

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: the verifier must be well-formed and hash to the stored challenge (S256 only, OAuth 2.1). */
export function verifyPkceS256(verifier: unknown, challenge: string): boolean {
  if (!isPkceValue(verifier)) return false;
  const a = Buffer.from(s256Challenge(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

import { hasControlCharacter } from '../../../../shared/domain/control-characters';
import type { Violation } from '../../../../shared/domain/errors';

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

/**
 * CONTRACT §10: an absolute `https` URI, or `http` on `localhost`/`127.0.0.1` (local development), with
 * no fragment (RFC 6749 §3.1.2). No user info either: it would end up in the owner's address bar.
 */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URI_LENGTH) return 'must be an absolute URI of at most 2000 characters';
  // the URL parser drops leading and trailing control characters (and tabs and line breaks anywhere), so
  // it would accept what cannot be stored (NUL) or shown (issue 35 finding 8): the text as given is judged
  if (hasControlCharacter(value)) return 'must be an absolute URI without control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (value.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not hold user information';
  if (/\s/.test(value)) return 'must be an absolute URI';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1')) return null;
  return 'must be https (http only on localhost or 127.0.0.1)';
}

export function redirectUriViolations(values: readonly unknown[]): Violation[] {
  const out: Violation[] = [];
  values.forEach((v, i) => {
    const problem = redirectUriProblem(v);
    if (problem) out.push({ pointer: `/redirect_uris/${i}`, code: 'invalid_input', detail: problem });
  });
  return out;
}

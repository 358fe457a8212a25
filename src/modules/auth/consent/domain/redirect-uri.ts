import { hasControlCharacter } from '../../../../shared/domain/control-characters';
import { type DomainError, toInputError, type Violation } from '../../../../shared/domain/errors';

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

/**
 * Why a redirect URI is refused, by name: the English detail of the API's violation; a page says the
 * name in its own words (the developer console's catalogue, `reason.redirectUri.<name>`).
 */
export const REDIRECT_URI_PROBLEMS = {
  format: `must be an absolute URI of at most ${MAX_URI_LENGTH} characters`,
  control: 'must be an absolute URI without control characters',
  absolute: 'must be an absolute URI',
  fragment: 'must not have a fragment',
  userinfo: 'must not hold user information',
  https: 'must be https (http only on localhost or 127.0.0.1)',
} as const;
export type RedirectUriProblem = keyof typeof REDIRECT_URI_PROBLEMS;

/**
 * CONTRACT §10: an absolute `https` URI, or `http` on `localhost`/`127.0.0.1` (local development), with
 * no fragment (RFC 6749 §3.1.2). No user info either: it would end up in the owner's address bar.
 */
export function redirectUriProblemOf(value: unknown): RedirectUriProblem | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URI_LENGTH) return 'format';
  // the URL parser drops leading and trailing control characters (and tabs and line breaks anywhere), so
  // it would accept what cannot be stored (NUL) or shown (issue 35 finding 8): the text as given is judged
  if (hasControlCharacter(value)) return 'control';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'absolute';
  }
  if (value.includes('#')) return 'fragment';
  if (url.username !== '' || url.password !== '') return 'userinfo';
  if (/\s/.test(value)) return 'absolute';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1')) return null;
  return 'https';
}

/** The English words of redirectUriProblemOf, or null for a URI that is fine. */
export function redirectUriProblem(value: unknown): string | null {
  const problem = redirectUriProblemOf(value);
  return problem === null ? null : REDIRECT_URI_PROBLEMS[problem];
}

/**
 * CONTRACT §21: an app keeps at least one redirect URI on the developer console (saving an empty list
 * would leave every consent without a way back): invalid_input, reason `redirectUri.required`.
 */
export function noRedirectUrisError(): DomainError {
  return toInputError([{ pointer: '/redirect_uris', code: 'invalid_input', detail: 'at least one redirect URI is required' }]).because('redirectUri.required');
}

/** The violations of a list of redirect URIs, as one invalid_input whose reason (for pages) is the first one's, with its `index`. */
export function redirectUrisError(values: readonly unknown[]): DomainError | null {
  const violations = redirectUriViolations(values);
  if (violations.length === 0) return null;
  const index = values.findIndex((v) => redirectUriProblemOf(v) !== null);
  return toInputError(violations).because(`redirectUri.${redirectUriProblemOf(values[index])}`, { index });
}

export function redirectUriViolations(values: readonly unknown[]): Violation[] {
  const out: Violation[] = [];
  values.forEach((v, i) => {
    const problem = redirectUriProblem(v);
    if (problem) out.push({ pointer: `/redirect_uris/${i}`, code: 'invalid_input', detail: problem });
  });
  return out;
}

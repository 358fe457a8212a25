import type { Violation } from '../../../../shared/domain/errors';

export const PUBLISHER_NAME_MAX = 200;
const URL_MAX = 2000;

/** Which rule a publisher field breaks (the pages name it in the page's language). */
export type PublisherProblem = 'name_length' | 'https_url' | 'cvr';

const CVR_WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1];

/** CONTRACT §21: a CVR number is 8 digits whose weighted sum (2, 7, 6, 5, 4, 3, 2, 1) is divisible by 11. */
export function isValidCvr(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9]{8}$/.test(value) && [...value].reduce((sum, d, i) => sum + Number(d) * CVR_WEIGHTS[i], 0) % 11 === 0;
}

/** The CVR rule's words in the API (the pages say it from their catalogue). */
export const CVR_RULE = 'must be a CVR number: 8 digits passing the modulus 11 check';

/** The publisher as its developer types it on the app page (each field '' when not given). */
export interface PublisherDraft {
  name: string;
  website: string;
  privacyPolicy: string;
  cvr: string;
}

/**
 * CONTRACT §18, §21: the publisher's name (1–200 characters) and two addresses, https only (an owner reads
 * them on the consent form and may follow them), without user information or spaces; the CVR number
 * passes its modulus 11 check. Empty means
 * "not given".
 */
export function publisherProblems(input: PublisherDraft): Partial<Record<keyof PublisherDraft, PublisherProblem>> {
  const out: Partial<Record<keyof PublisherDraft, PublisherProblem>> = {};
  if (input.name !== '' && [...input.name].length > PUBLISHER_NAME_MAX) out.name = 'name_length';
  if (input.website !== '' && !isHttpsUrl(input.website)) out.website = 'https_url';
  if (input.privacyPolicy !== '' && !isHttpsUrl(input.privacyPolicy)) out.privacyPolicy = 'https_url';
  if (input.cvr !== '' && !isValidCvr(input.cvr)) out.cvr = 'cvr';
  return out;
}

export function isHttpsUrl(value: string): boolean {
  if (value.length > URL_MAX || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The problems as violations of an `invalid_input` (pointers `/publisher_name`, `/website`, `/privacy_policy`, `/cvr`). */
export function publisherViolations(problems: Partial<Record<keyof PublisherDraft, PublisherProblem>>): Violation[] {
  const pointer = { name: '/publisher_name', website: '/website', privacyPolicy: '/privacy_policy', cvr: '/cvr' } as const;
  const detail = { name_length: `must be at most ${PUBLISHER_NAME_MAX} characters`, https_url: 'must be an https address', cvr: CVR_RULE } as const;
  return (Object.keys(problems) as Array<keyof PublisherDraft>).map((k) => ({
    pointer: pointer[k],
    code: 'invalid_input' as const,
    detail: detail[problems[k] as PublisherProblem],
  }));
}

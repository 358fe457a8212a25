import type { Violation } from '../../../../shared/domain/errors';
import type { AppPublisher } from './app-read.repository';

export const PUBLISHER_NAME_MAX = 200;
const URL_MAX = 2000;

/** Which rule a publisher field breaks (the pages name it in the page's language). */
export type PublisherProblem = 'name_length' | 'https_url';

/**
 * CONTRACT §18: the publisher's name (1–200 characters) and two addresses, https only (an owner reads
 * them on the consent form and may follow them), without user information or spaces. Empty means
 * "not given".
 */
export function publisherProblems(input: { name: string; website: string; privacyPolicy: string }): Partial<Record<keyof AppPublisher, PublisherProblem>> {
  const out: Partial<Record<keyof AppPublisher, PublisherProblem>> = {};
  if (input.name !== '' && [...input.name].length > PUBLISHER_NAME_MAX) out.name = 'name_length';
  if (input.website !== '' && !isHttpsUrl(input.website)) out.website = 'https_url';
  if (input.privacyPolicy !== '' && !isHttpsUrl(input.privacyPolicy)) out.privacyPolicy = 'https_url';
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

/** The problems as violations of an `invalid_input` (pointers `/publisher_name`, `/website`, `/privacy_policy`). */
export function publisherViolations(problems: Partial<Record<keyof AppPublisher, PublisherProblem>>): Violation[] {
  const pointer = { name: '/publisher_name', website: '/website', privacyPolicy: '/privacy_policy' } as const;
  return (Object.keys(problems) as Array<keyof AppPublisher>).map((k) => ({
    pointer: pointer[k],
    code: 'invalid_input' as const,
    detail: problems[k] === 'name_length' ? `must be at most ${PUBLISHER_NAME_MAX} characters` : 'must be an https address',
  }));
}

import { DomainError } from '../../../shared/domain/errors';
import { REDIRECT_URI_PROBLEMS, redirectUrisError } from '../../auth/consent/domain/redirect-uri';
import { ENDPOINT_URL_PROBLEMS } from '../../webhooks/domain/endpoint-address';
import { TooManyEndpointsError, TooManyEndpointsOnHostError } from '../../webhooks/domain/endpoint-limits';
import { recoverSince } from '../../webhooks/domain/recover-window';
import { LOG_FILTER_ERRORS } from '../domain/request-log-filter';
import { DEVELOPER_MESSAGES } from './messages';

const reasonOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as DomainError).reason?.name ?? 'no reason';
  }
  return 'not refused';
};

/**
 * CONTRACT §18: a refusal shown on a developer page is in the page's language — the reason the module
 * names has a text in both catalogues (a reason without one fails here, not as English on a Danish page).
 */
describe('refusal reasons in the developer catalogue', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const named = [
    ...Object.keys(ENDPOINT_URL_PROBLEMS).map((p) => `webhookUrl.${p}`),
    ...Object.keys(REDIRECT_URI_PROBLEMS).map((p) => `redirectUri.${p}`),
    reasonOf(() => recoverSince('last tuesday', now, 30)),
    reasonOf(() => recoverSince('2026-11-26T00:00:00Z', now, 30)),
    reasonOf(() => recoverSince('2026-01-01', now, 30)),
    new TooManyEndpointsError().reason?.name,
    new TooManyEndpointsOnHostError(10, 'hooks.example').reason?.name,
    'webhookRecover.disabled',
  ];

  it('names each refusal', () => {
    expect(named.slice(-6)).toEqual([
      'webhookSince.format',
      'webhookSince.future',
      'webhookSince.retention',
      'webhookEndpoints.appFull',
      'webhookEndpoints.hostFull',
      'webhookRecover.disabled',
    ]);
  });

  it('has words for every reason in da and in en, and the Danish ones are not the English ones', () => {
    const missing = named.filter((n) => !(`reason.${n}` in DEVELOPER_MESSAGES.en) || !(`reason.${n}` in DEVELOPER_MESSAGES.da));
    expect(missing).toEqual([]);
    const en = DEVELOPER_MESSAGES.en as Record<string, string>;
    const da = DEVELOPER_MESSAGES.da as Record<string, string>;
    expect(named.filter((n) => da[`reason.${n}`] === en[`reason.${n}`])).toEqual([]);
  });

  it('gives a redirect URI refusal the index of the first refused URI', () => {
    expect(redirectUrisError(['https://ok.example/cb', 'https://a.example/#x', 'ftp://b'])?.reason).toEqual({
      name: 'redirectUri.fragment',
      params: { index: 1 },
    });
    expect(redirectUrisError(['https://ok.example/cb'])).toBeNull();
  });

  it('keeps the API detail English (CONTRACT §18: problem bodies are for programs)', () => {
    const err = redirectUrisError(['ftp://b']) as DomainError;
    expect(err.violations).toEqual([{ pointer: '/redirect_uris/0', code: 'invalid_input', detail: 'must be https (http only on localhost or 127.0.0.1)' }]);
    expect(JSON.stringify(err.violations)).not.toContain('reason');
  });

  it('has words for every request-log filter refusal in da and in en', () => {
    expect(LOG_FILTER_ERRORS.filter((e) => !(`logFilter.${e}` in DEVELOPER_MESSAGES.en) || !(`logFilter.${e}` in DEVELOPER_MESSAGES.da))).toEqual([]);
  });
});

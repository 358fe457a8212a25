import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSENT_MESSAGES } from '../../src/modules/auth/consent/views/messages';
import { DEVELOPER_MESSAGES } from '../../src/modules/developers/views/messages';
import { scopeCatalogueTexts } from '../../src/shared/domain/scopes';
import { translate } from '../../src/shared/web/i18n';
import { WEB_MESSAGES } from '../../src/shared/web/messages';
import { aConsentSetup, authorizeQuery, consentOverHttp, nextCode, PageDriver, PASSWORD, pkcePair, postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage } from '../support/developer-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const CATALOGUES = [WEB_MESSAGES, CONSENT_MESSAGES, DEVELOPER_MESSAGES];

/** The glossary's technical terms a Danish page may show as they are (docs/glossary-da.md, its last section). */
const GLOSSARY = readFileSync(join(__dirname, '..', '..', 'docs', 'glossary-da.md'), 'utf8');
const TECHNICAL = new Set([...GLOSSARY.slice(GLOSSARY.indexOf('## Tekniske termer')).matchAll(/`([^`]+)`/g)].map((m) => m[1].toLowerCase()));

/** Danish words spelled as an English word of the catalogues (not English on a Danish page). */
const ALSO_DANISH = new Set([
  'app',
  'apps',
  'at',
  'for',
  'give',
  'have',
  'link',
  'links',
  'log',
  'start',
  'status',
  'send',
  'time',
  'under',
  'operation',
  'hat',
  'fragment',
  'zone',
  'demo',
  'minut',
  'det',
  'alle',
]);

/** A text's placeholders as a reader sees them: `{n, plural, one {# a} other {# b}}` gives its forms, `{name}` nothing. */
function readable(text: string): string {
  return text
    .replace(/\{\w+, plural,((?:\s*[a-z]+ \{[^{}]*\})+)\s*\}/g, (_w, forms: string) => forms.replace(/[a-z]+ \{([^{}]*)\}/g, ' $1 '))
    .replace(/\{\w+\}/g, ' ');
}

/** Words of a text: letters only; addresses, environment variable names and code-like tokens left out. */
function wordsOf(text: string): string[] {
  const plain = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/\b\S*[_0-9]\S*\b/g, ' ');
  // each part of a compound too ("Request-id" holds the English "request")
  return (plain.match(/[A-Za-zÆØÅæøåé]+/g) ?? []).map((w) => w.toLowerCase());
}

/** Every word the English texts use (the catalogues and the scopes' words). */
const ENGLISH = new Set<string>();
for (const c of CATALOGUES) for (const t of Object.values(c.en)) wordsOf(readable(t)).forEach((w) => ENGLISH.add(w));
Object.values(scopeCatalogueTexts('en')).forEach((t) => wordsOf(t).forEach((w) => ENGLISH.add(w)));

/** The glossary's technical terms of more than one part ("e-mail", "redirect-URI"), taken out before the words are split. */
const COMPOUND_TERMS = [...TECHNICAL]
  .filter((t) => /[^a-zæøå]/.test(t))
  .sort((a, b) => b.length - a.length)
  .map((t) => new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'));

function englishIn(text: string, names: string[] = []): string[] {
  let t = text;
  for (const n of names) t = t.split(n).join(' ');
  for (const term of COMPOUND_TERMS) t = t.replace(term, ' ');
  return [
    ...new Set(wordsOf(t).filter((w) => ENGLISH.has(w) && !TECHNICAL.has(w) && !ALSO_DANISH.has(w) && !(w.endsWith('s') && TECHNICAL.has(w.slice(0, -1))))),
  ];
}

/** What a person reads on a page: its text and the accessible names it sets; no style, no <code> (addresses, ids). */
function readableHtml(html: string): string {
  const attributes = [...html.matchAll(/\s(?:aria-label|placeholder|title|alt)="([^"]*)"/g)].map((m) => m[1]).join(' ');
  const text = html
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<code[^>]*>[\s\S]*?<\/code>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');
  return `${text} ${attributes}`;
}

/**
 * CONTRACT §21 "Words": Danish pages held to docs/glossary-da.md — no English word on a Danish page
 * other than the service's and the app's names (and the glossary's technical terms); bilag for voucher
 * documentation; no "revision" that reads as an audit; Recover and Resend not both "Send igen"; no
 * client_id/redirect_uri in the owner's error texts; the number's plural ("1 sekund").
 */
describe('Danish words (CONTRACT §21)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  beforeAll(async () => {
    app = await createTestApp({ serviceName: 'Regnskabsporten' }, { clock });
  });
  afterAll(() => app.close());

  it('every Danish text of the catalogues: no English word outside the glossary’s technical terms', () => {
    const found: string[] = [];
    for (const c of CATALOGUES) {
      for (const [key, text] of Object.entries(c.da)) {
        const english = englishIn(readable(text));
        if (english.length > 0) found.push(`${key}: ${english.join(', ')}`);
      }
    }
    for (const [key, text] of Object.entries(scopeCatalogueTexts('da'))) {
      const english = englishIn(text);
      if (english.length > 0) found.push(`${key}: ${english.join(', ')}`);
    }
    expect(found).toEqual([]);
  });

  it('the glossary’s words: bilag, no kvittering, no revision, Recover and Resend apart, no client_id/redirect_uri for owners, plurals', () => {
    const da = CATALOGUES.flatMap((c) => Object.entries(c.da)).concat(Object.entries(scopeCatalogueTexts('da')));
    expect(da.filter(([, t]) => /kvittering/i.test(t)).map(([k]) => k)).toEqual([]);
    expect(da.filter(([, t]) => /vedhæftede? fil/i.test(t)).map(([k]) => k)).toEqual([]);
    expect(da.filter(([, t]) => /revision/i.test(t)).map(([k]) => k)).toEqual([]);
    expect(DEVELOPER_MESSAGES.da.recover).not.toBe(DEVELOPER_MESSAGES.da.resend);
    expect(
      Object.entries(CONSENT_MESSAGES.da)
        .filter(([, t]) => /client_id|redirect_uri/.test(t))
        .map(([k]) => k),
    ).toEqual([]);
    expect(translate('da', 'web.tooMany', { seconds: 1 })).toBe('For mange forsøg fra din adresse. Prøv igen om 1 sekund.');
    expect(translate('da', 'web.tooMany', { seconds: 2 })).toBe('For mange forsøg fra din adresse. Prøv igen om 2 sekunder.');
    expect(translate('en', 'web.tooMany', { seconds: 1 })).toBe('Too many attempts from your address. Try again in 1 second.');
    expect(translate('da', 'developers.quota_signupEmailsPerClientPerHour', { minutes: 1 })).toMatch(/om 1 minut\.$/);
    expect(translate('da', 'developers.requestLogHint', { days: 1 })).toContain('gemt i 1 dag.');
  });

  it('every Danish page an owner and a developer reach: no English word but the service’s, the app’s and the glossary’s', async () => {
    const s = await aConsentSetup(app, { accounts: 2, appName: 'Bogføringsappen' });
    const names = ['Regnskabsporten', 'Bogføringsappen', 'Bager Hansen ApS', ...s.organization.accounts.map((a) => a.name)];
    const pages: Array<[string, string]> = [];
    const owner = new PageDriver(app);
    owner.language = 'da';
    const url = `/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`;
    pages.push(['owner sign-in', (await owner.get(url)).text]);
    pages.push(['unknown app', (await owner.get('/oauth/authorize?client_id=nope')).text]);
    pages.push(['bad redirect', (await owner.get(url.replace(/redirect_uri=[^&]+/, 'redirect_uri=https%3A%2F%2Fevil.example%2F'))).text]);
    await owner.get(url);
    const consent = await postAndFollow(owner, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    pages.push(['consent', consent.text]);
    const granted = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge, mandate: true });
    expect(granted.location).toContain('code=');
    const connections = new PageDriver(app);
    connections.language = 'da';
    pages.push(['connections sign-in', (await connections.get('/account/connections')).text]);
    const signedIn = await postAndFollow(connections, '/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    pages.push(['connections', signedIn.text]);
    const grantId = /id="grant-([0-9a-f-]{36})"/.exec(signedIn.text)?.[1] as string;
    pages.push(['revoke confirmation', (await connections.get(`/account/connections/revoke?grant_id=${grantId}`)).text]);

    const d = await aDeveloper(app, clock);
    d.driver.language = 'da';
    pages.push(['developer sign-up', (await new PageDriver(app).get('/developers/signup?lang=da')).text]);
    pages.push(['developer sign-in', (await new PageDriver(app).get('/developers/signin?lang=da')).text]);
    const appId = await anAppOnThePage(d, 'Bogføringsappen');
    pages.push(['apps', (await d.driver.get('/developers/apps')).text]);
    pages.push(['new app', (await d.driver.get('/developers/apps/new')).text]);
    expect((await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: 'https://hooks.example/partner', environment: 'sandbox' })).status).toBe(
      303,
    );
    const appPage = await d.driver.get(`/developers/apps/${appId}`);
    pages.push(['app page', appPage.text]);
    const endpointId = /id="endpoint-([0-9a-f-]{36})"/.exec(appPage.text)?.[1] as string;
    pages.push(['delete endpoint confirmation', (await d.driver.get(`/developers/apps/${appId}/webhook-endpoints/delete?endpoint_id=${endpointId}`)).text]);

    const found: string[] = [];
    for (const [name, html] of pages) {
      expect(html).toContain('<html lang="da">');
      const english = englishIn(readableHtml(html), [...names, 'Partner API']);
      if (english.length > 0) found.push(`${name}: ${english.join(', ')}`);
    }
    expect(found).toEqual([]);
  });
});

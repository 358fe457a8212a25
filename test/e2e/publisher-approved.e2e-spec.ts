import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { PageDriver, pkcePair, REDIRECT_URI } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, DEV_PASSWORD, type Developer } from '../support/developer-fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * CONTRACT §21 "Who is asking, approved" and "Dates that stay true", over HTTP: the publisher an owner
 * reads on the consent page is the approved revision's (name, website, privacy policy, CVR number), a
 * change after approval shows only once the operator approves a revision carrying it, an unverified
 * publisher says so in both languages, and a CVR number failing its modulus 11 check is refused where it
 * is entered (the developer console's form: 422; the console API: 400).
 */
describe('who is asking, approved (CONTRACT §21)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  beforeAll(async () => {
    app = await createTestApp({ serviceName: 'Regnskabsporten' }, { clock });
  });
  afterAll(() => app.close());

  // 10150817 passes the check (2·1 + 7·0 + 6·1 + 5·5 + 4·0 + 3·8 + 2·1 + 1·7 = 66 = 6·11); 10150818 does not
  const VALID_CVR = '10150817';
  const INVALID_CVR = '10150818';

  /** A developer's app on the page with a redirect URI (the developer consents to it as the demo company's owner). */
  async function anApp(): Promise<{ d: Developer; appId: string }> {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d, 'Bogføringsappen');
    expect((await d.driver.post(`/developers/apps/${appId}/redirect-uris`, { redirect_uris: REDIRECT_URI })).status).toBe(303);
    return { d, appId };
  }

  const savePublisher = (d: Developer, appId: string, p: { publisher_name: string; website: string; privacy_policy: string; cvr: string }) =>
    d.driver.post(`/developers/apps/${appId}/publisher`, p);

  async function approveNewRevision(appId: string): Promise<void> {
    const rev = await consolePost(app, `/apps/${appId}/revisions`);
    expect(rev.status).toBe(201);
    expect((await consolePost(app, `/apps/${appId}/revisions/${rev.body.id}/approve`)).status).toBe(200);
  }

  /** The consent page as the owner sees it (a fresh browser each time), in `language`. */
  async function consentPage(d: Developer, appId: string, language: 'da' | 'en'): Promise<string> {
    const driver = new PageDriver(app);
    driver.language = language;
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: appId,
      redirect_uri: REDIRECT_URI,
      scope: 'journal:prepare',
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect((await driver.get(`/oauth/authorize?${q.toString()}`)).status).toBe(200);
    clock.advance(30_000);
    const signedIn = await driver.post('/oauth/authorize/sign-in', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    expect(signedIn.status).toBe(303);
    const page = await driver.get(signedIn.headers.location as string);
    expect(page.status).toBe(200);
    return page.text;
  }

  /** The "Who is asking" section's text, tags removed. */
  const whoIsAsking = (html: string) => {
    const start = html.indexOf('id="h-who"');
    return html
      .slice(start, html.indexOf('</section>', start))
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
  };

  it('shows the approved revision’s publisher; a change after approval only once the operator approves it; "Not verified" until verified', async () => {
    const { d, appId } = await anApp();
    expect(
      (
        await savePublisher(d, appId, {
          publisher_name: 'Bogføring A/S',
          website: 'https://bogforing.example',
          privacy_policy: 'https://bogforing.example/privatliv',
          cvr: VALID_CVR,
        })
      ).status,
    ).toBe(303);
    // saved, not approved: owners see no publisher yet
    expect(whoIsAsking(await consentPage(d, appId, 'da'))).not.toContain('Bogføring A/S');

    await approveNewRevision(appId);
    let da = whoIsAsking(await consentPage(d, appId, 'da'));
    expect(da).toContain('Bogføring A/S');
    expect(da).toContain(`CVR-nr. ${VALID_CVR}`);
    expect(da).toContain('https://bogforing.example/privatliv');
    expect(da).toContain('Ikke verificeret af Regnskabsporten');
    expect(whoIsAsking(await consentPage(d, appId, 'en'))).toContain('Not verified by Regnskabsporten');

    // the operator verifies the approved revision's publisher
    const verified = await consolePost(app, `/apps/${appId}/publisher-verification`, { cvr: VALID_CVR });
    expect([verified.status, verified.body]).toEqual([200, { app_id: appId, publisher_verified: true }]);
    da = whoIsAsking(await consentPage(d, appId, 'da'));
    expect(da).toContain('Verificeret af Regnskabsporten');
    expect(da).not.toContain('Ikke verificeret');
    expect(whoIsAsking(await consentPage(d, appId, 'en'))).toContain('Verified by Regnskabsporten');

    // the finding: after approval the developer claims to be the tax agency
    expect(
      (await savePublisher(d, appId, { publisher_name: 'Skattestyrelsen (officiel)', website: 'https://skat.dk', privacy_policy: '', cvr: '' })).status,
    ).toBe(303);
    da = whoIsAsking(await consentPage(d, appId, 'da'));
    expect(da).not.toContain('Skattestyrelsen');
    expect(da).not.toContain('skat.dk');
    expect(da).toContain('Bogføring A/S');
    expect(da).toContain('Verificeret af Regnskabsporten');
    // the developer's page says what owners see now, and the draft as saved
    const devPage = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(devPage).toContain('value="Skattestyrelsen (officiel)"');
    expect(devPage).toMatch(/Owners see now: Bogføring A\/S\./);

    // once the operator approves a revision carrying it, owners see it — as not verified
    await approveNewRevision(appId);
    da = whoIsAsking(await consentPage(d, appId, 'da'));
    expect(da).toContain('Skattestyrelsen (officiel)');
    expect(da).toContain('https://skat.dk');
    expect(da).not.toContain('CVR-nr.');
    expect(da).toContain('Ikke verificeret af Regnskabsporten');
    expect(da).not.toMatch(/(^| )Verificeret af/);
    expect(whoIsAsking(await consentPage(d, appId, 'en'))).toContain('Not verified by Regnskabsporten');

    // verified again, a revision with the same publisher keeps the verification
    expect((await consolePost(app, `/apps/${appId}/publisher-verification`)).status).toBe(200);
    await approveNewRevision(appId);
    expect(whoIsAsking(await consentPage(d, appId, 'da'))).toContain('Verificeret af Regnskabsporten');
  });

  it('no publisher given: "not given" without a "Not verified" badge beside it, on the consent page in both languages and on the developer page', async () => {
    const { d, appId } = await anApp();
    await approveNewRevision(appId);
    const da = whoIsAsking(await consentPage(d, appId, 'da'));
    expect(da).toContain('Udgiver ikke oplyst');
    expect(da).not.toContain('verificeret');
    const en = whoIsAsking(await consentPage(d, appId, 'en'));
    expect(en).toContain('Publisher not given');
    expect(en).not.toMatch(/verified/i);
    const devPage = (await d.driver.get(`/developers/apps/${appId}`)).text;
    const shown = /<p id="publisher-shown">(.*?)<\/p>/s.exec(devPage)?.[1] ?? '';
    expect(shown).toContain('Owners see now: no publisher given.');
    expect(shown).not.toContain('badge');
  });

  it('refuses a CVR number failing its modulus 11 check where it is entered: the form (422, the field named, nothing saved) and the console API (400)', async () => {
    const { d, appId } = await anApp();
    for (const bad of [INVALID_CVR, '1015081', '1015081x', '123456789']) {
      const res = await savePublisher(d, appId, { publisher_name: 'Bogføring A/S', website: '', privacy_policy: '', cvr: bad });
      expect(res.status).toBe(422);
      expect(res.text).toContain('CVR number: enter the 8 digits of a CVR number');
      expect(res.text).toMatch(/id="cvr"[^>]*aria-invalid="true"/);
    }
    // nothing saved: the page shows no publisher name
    expect((await d.driver.get(`/developers/apps/${appId}`)).text).toContain(
      'id="publisher_name" name="publisher_name" type="text" maxlength="200" autocomplete="organization" value=""',
    );
    // spaces a person types between groups are no fault
    expect((await savePublisher(d, appId, { publisher_name: 'Bogføring A/S', website: '', privacy_policy: '', cvr: '1015 0817' })).status).toBe(303);
    expect((await d.driver.get(`/developers/apps/${appId}`)).text).toContain(`value="${VALID_CVR}"`);

    // the console API: no approved revision yet → 409 app_not_approved; a bad CVR → 400 naming /cvr; another CVR → 409
    const before = await consolePost(app, `/apps/${appId}/publisher-verification`, {});
    expect([before.status, before.body.code]).toEqual([409, 'app_not_approved']);
    await approveNewRevision(appId);
    for (const bad of [INVALID_CVR, '1015081', 10150817]) {
      const res = await consolePost(app, `/apps/${appId}/publisher-verification`, { cvr: bad });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.errors[0].pointer).toBe('/cvr');
    }
    const other = await consolePost(app, `/apps/${appId}/publisher-verification`, { cvr: '25313763' });
    expect([other.status, other.body.code]).toEqual([409, 'resource_conflict']);
    expect(whoIsAsking(await consentPage(d, appId, 'da'))).toContain('Ikke verificeret af Regnskabsporten');
    const unknown = await consolePost(app, `/apps/00000000-0000-4000-8000-000000000000/publisher-verification`, {});
    expect(unknown.status).toBe(404);
  });

  it('Dates that stay true: each Duration option states its own end date, and no other text on the page names an end date', async () => {
    const { d, appId } = await anApp();
    const html = await consentPage(d, appId, 'da');
    const options = [...html.matchAll(/<option value="(\d+)"[^>]*>([^<]+)<\/option>/g)].map((m) => [m[1], m[2]]);
    // 20 November 2026 12:00 UTC (plus the minutes this file's sign-ins advance the clock)
    expect(options).toEqual([
      ['90', '90 dage – til 18. februar 2027'],
      ['60', '60 dage – til 19. januar 2027'],
      ['30', '30 dage – til 20. december 2026'],
    ]);
    const outside = html.replace(/<option[^>]*>[^<]*<\/option>/g, '').replace(/<[^>]+>/g, ' ');
    expect(outside).not.toMatch(/\b\d{1,2}\. (januar|februar|marts|april|maj|juni|juli|august|september|oktober|november|december) \d{4}/);
    expect(outside).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    const en = (await consentPage(d, appId, 'en')).replace(/<option[^>]*>[^<]*<\/option>/g, '').replace(/<[^>]+>/g, ' ');
    expect(en).not.toMatch(/\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}/);
    expect(en).not.toMatch(/(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/);
  });
});

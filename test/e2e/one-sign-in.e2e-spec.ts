import { aConsentSetup, authorizeQuery, consentOverHttp, nextCode, PageDriver, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * CONTRACT §21 "One sign-in": an owner signed in (to Connected apps or an earlier consent) stays signed in
 * through /oauth/authorize, Back and a second tab until the session ends; the consent page has Sign out
 * and a link to Connected apps that keeps the consent request.
 */
describe('one sign-in (CONTRACT §21)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 14, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  const grants = async (organizationId: string) =>
    Number((await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1`, [organizationId]))[0].n);

  it('signed in to Connected apps, /oauth/authorize goes straight to the consent form; its link to Connected apps keeps the request', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get('/account/connections');
    expect((await driver.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(303);
    const authorize = await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect([authorize.status, authorize.headers.location]).toEqual([303, '/oauth/authorize/continue']);
    const consent = await driver.get('/oauth/authorize/continue');
    expect(consent.text).toContain('Allow access');
    // Sign out and Connected apps on the consent page
    expect(consent.text).toMatch(/<form method="post" action="\/oauth\/authorize\/sign-out">/);
    expect(consent.text).toContain('<a href="/account/connections">');
    const connections = await driver.get('/account/connections');
    expect(connections.text).toContain('<h1>Connected apps</h1>');
    expect(connections.text).not.toContain('name="password"');
    // Back: the consent form again, the request kept
    expect((await driver.get('/oauth/authorize/continue')).text).toContain('Allow access');
  });

  it('after a consent the owner stays signed in: Back says the request was answered, Connected apps and the next /oauth/authorize ask for no sign-in, a replayed decision makes nothing', async () => {
    const s = await aConsentSetup(app);
    const { location, driver } = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge });
    expect(new URL(location).searchParams.get('code')).toBeTruthy();
    expect(await grants(s.organization.id)).toBe(1);
    const back = await driver.get('/oauth/authorize/continue');
    expect(back.status).toBe(200);
    expect(back.text).toContain('You answered this app’s request already');
    const replay = await driver.post('/oauth/authorize/decision', { decision: 'allow', account_ids: s.organization.accounts[0].id, duration_days: '90' });
    expect(replay.status).toBe(303);
    expect(replay.headers.location).toBe('/oauth/authorize/continue');
    expect(await grants(s.organization.id)).toBe(1);
    expect((await driver.get('/account/connections')).text).not.toContain('name="password"');
    const again = await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect([again.status, again.headers.location]).toEqual([303, '/oauth/authorize/continue']);
    expect((await driver.get('/oauth/authorize/continue')).text).toContain('Allow access');
  });

  it("a second tab goes on signed in; the first tab's form decides nothing (409, the newer request named), never applied to the second request", async () => {
    const s = await aConsentSetup(app);
    const { driver } = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge });
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: 'tab-one' })}`);
    const tabOne = await driver.get('/oauth/authorize/continue');
    const tabOneCsrf = /name="_csrf" value="([^"]+)"/.exec(tabOne.text)?.[1] as string;
    // the tag of the request the form was shown for (issue 45: the second tab's request replaces it cleanly)
    const tabOneRequest = /name="request" value="([^"]+)"/.exec(tabOne.text)?.[1] as string;
    expect(tabOneRequest).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // the second tab (the same browser: the same cookies)
    const second = await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: 'tab-two' })}`);
    expect(second.headers.location).toBe('/oauth/authorize/continue');
    expect((await driver.get('/oauth/authorize/continue')).text).toContain('Allow access');
    const before = await grants(s.organization.id);
    const fromTabOne = await driver.post(
      '/oauth/authorize/decision',
      { decision: 'allow', account_ids: s.organization.accounts[0].id, duration_days: '90', request: tabOneRequest },
      { csrf: tabOneCsrf },
    );
    expect(fromTabOne.status).toBe(409);
    expect(fromTabOne.text).toContain('A newer request replaced this one');
    expect(fromTabOne.text).toContain('href="/oauth/authorize/continue"');
    expect(await grants(s.organization.id)).toBe(before);
    // a form of another session (a forged or expired token) is still refused
    const forged = await driver.post(
      '/oauth/authorize/decision',
      { decision: 'allow', account_ids: s.organization.accounts[0].id, duration_days: '90', request: tabOneRequest },
      { csrf: 'not-a-token' },
    );
    expect(forged.status).toBe(403);
    expect(await grants(s.organization.id)).toBe(before);
  });

  it("Sign out on the consent page ends the session and shows the same request's sign-in page", async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    const query = authorizeQuery(s, pkcePair().challenge, { state: 'keep-me' });
    await driver.get(`/oauth/authorize?${query}`);
    await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    await driver.get('/oauth/authorize/continue');
    const out = await driver.post('/oauth/authorize/sign-out', {});
    expect(out.status).toBe(303);
    const location = new URL(String(out.headers.location), 'http://x');
    expect(location.pathname).toBe('/oauth/authorize');
    expect(location.searchParams.get('state')).toBe('keep-me');
    const page = await driver.get(`${location.pathname}${location.search}`);
    expect(page.text).toContain('name="password"');
    expect((await driver.get('/account/connections')).text).toContain('name="password"');
  });
});

import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { aConsentSetup, authorizeQuery, nextCode, PageDriver, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { DEV_PASSWORD } from '../support/developer-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

type Answer = Awaited<ReturnType<PageDriver['get']>>;

/**
 * What a browser's reload does with the page a form's POST answered: a page that answered the POST
 * itself is asked for again by posting the same form once more; a 303's page is asked for again by GET.
 */
async function reload(driver: PageDriver, path: string, form: Record<string, string>, csrf: string, answer: Answer): Promise<Answer> {
  if (answer.status === 303) return driver.get(String(answer.headers.location).split('#')[0]);
  return driver.post(path, form, { csrf });
}

/** The refused form's page: the answer itself, or the page its 303 leads to. */
async function pageOf(driver: PageDriver, answer: Answer): Promise<Answer> {
  return answer.status === 303 ? driver.get(String(answer.headers.location).split('#')[0]) : answer;
}

/**
 * CONTRACT §21 "A reload repeats nothing": a refused sign-in counts once toward the lockout however
 * often its page is reloaded; the form shows the message at its top (role="alert", focused) and keeps
 * the email, never the password or the code.
 */
describe('a reload repeats nothing (CONTRACT §21)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 9, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  /** One refused sign-in reloaded five times, then the right password and code: signed in, not locked. */
  async function refusedThenReloaded(driver: PageDriver, path: string, form: Record<string, string>): Promise<Answer> {
    const csrf = driver.lastCsrf as string;
    const refused = await driver.post(path, form);
    expect([303, 401]).toContain(refused.status);
    const page = await pageOf(driver, refused);
    expect(page.status).toBeLessThan(500);
    // the message at the form's top, in an alert that takes focus; the email kept, the password and code not
    expect(page.text).toMatch(/<p class="error alert" role="alert" id="form-error" tabindex="-1" autofocus>/);
    expect(page.text).toContain(`value="${form.email}"`);
    expect(page.text).not.toContain(form.password);
    expect(page.text).not.toContain(`value="${form.code}"`);
    let answer: Answer = refused;
    for (let i = 0; i < 5; i++) {
      answer = await reload(driver, path, form, csrf, answer);
      expect(answer.status).not.toBe(429);
    }
    return answer;
  }

  it('the consent sign-in: a refusal reloaded five times counts once; the right password and code then sign in', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    await refusedThenReloaded(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: 'not the password', code: '123456' });
    // a browser shows the form again (GET) before the next try: its token is the one posted
    await driver.get('/oauth/authorize/sign-in');
    const signedIn = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/oauth/authorize/continue']);
    expect((await driver.get('/oauth/authorize/continue')).text).toContain('Allow access');
  });

  it('Connected apps: a refusal reloaded five times counts once', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get('/account/connections');
    await refusedThenReloaded(driver, '/account/connections/sign-in', { email: s.owner.email, password: 'not the password', code: '123456' });
    await driver.get('/account/connections');
    const signedIn = await driver.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/account/connections']);
  });

  it('the developer console: a refusal reloaded five times counts once; the message shows in both languages', async () => {
    const email = `dev-${randomUUID()}@example.dk`;
    const created = await app
      .console()
      .post('/console/v1/developers')
      .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
      .send({ email, password: DEV_PASSWORD });
    expect(created.status).toBe(201);
    const secret = created.body.totp_secret as string;
    const driver = new PageDriver(app);
    await driver.get('/developers/signin');
    await refusedThenReloaded(driver, '/developers/signin', { email, password: 'not the password', code: '123456' });
    // Danish: the same refusal's message, in Danish, at the top of the form
    driver.language = 'da';
    await driver.get('/developers/signin');
    const refusedDa = await driver.post('/developers/signin', { email, password: 'stadig forkert', code: '123456' });
    const pageDa = await pageOf(driver, refusedDa);
    expect(pageDa.headers['content-language']).toBe('da');
    expect(pageDa.text).toMatch(/role="alert" id="form-error" tabindex="-1" autofocus>Du kunne ikke logges ind/);
    clock.advance(30_000);
    const signedIn = await driver.post('/developers/signin', { email, password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/developers/apps']);
  });
});

import { aConsentSetup, authorizeQuery, nextCode, PageDriver, PASSWORD, pkcePair, postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, DEV_PASSWORD } from '../support/developer-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/**
 * Issue 35 finding 8: a NUL byte in an app name or a sign-up email answered 500 (PostgreSQL cannot
 * store U+0000). Every form field of the pages, and every JSON string the console API takes that a page
 * shows (app, organization, account and tax code names, emails, redirect URIs, webhook URLs), refuses
 * control characters with a 4xx — a page for a form — and writes nothing.
 */
const CONTROLS = { NUL: '\u0000', 'U+0001': '\u0001', ESC: '\u001b', DEL: '\u007f' } as const;

describe('control characters in forms and in JSON strings that reach pages: 400/422, never 500 (issue 35 finding 8)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  const isRefusedPage = (res: { status: number; headers: Record<string, string> }) =>
    [400, 422].includes(res.status) && /^text\/html/.test(res.headers['content-type']);

  it.each(Object.entries(CONTROLS))('developer pages: %s in every field of every form', async (_name, c) => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const before = await app.apps.dataSource.query('SELECT count(*)::int AS n FROM apps');
    const stranger = new PageDriver(app);
    await stranger.get('/developers/signup');
    const answers: Array<[string, number, boolean]> = [];
    const check = async (what: string, driver: PageDriver, path: string, form: Record<string, string>) => {
      const res = await driver.post(path, form);
      answers.push([what, res.status, isRefusedPage(res as never)]);
    };
    await check('sign-up email', stranger, '/developers/signup', { email: `a${c}b@example.dk` });
    // the password is chosen on the link's page (CONTRACT §20); without a sign-up in the session it is refused too
    await check('sign-up password', stranger, '/developers/signup/confirm', { password: `${DEV_PASSWORD}${c}`, code: '000000' });
    const signIn = new PageDriver(app);
    await signIn.get('/developers/signin');
    await check('sign-in email', signIn, '/developers/signin', { email: `${d.email}${c}`, password: DEV_PASSWORD, code: '000000' });
    await check('sign-in password', signIn, '/developers/signin', { email: d.email, password: `${c}${DEV_PASSWORD}`, code: '000000' });
    await check('sign-in code', signIn, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: `00000${c}` });
    await d.driver.get('/developers/apps/new');
    await check('app name', d.driver, '/developers/apps', { name: `Bog${c}føring` });
    await d.driver.get(`/developers/apps/${appId}`);
    await check('redirect URIs', d.driver, `/developers/apps/${appId}/redirect-uris`, { redirect_uris: `http://127.0.0.1:8765/cb${c}` });
    await check('webhook URL', d.driver, `/developers/apps/${appId}/webhook-endpoints`, { url: `http://127.0.0.1:9/h${c}`, environment: 'sandbox' });
    await check('webhook environment', d.driver, `/developers/apps/${appId}/webhook-endpoints`, { url: 'http://127.0.0.1:9/h', environment: `sandbox${c}` });
    await check('endpoint id', d.driver, `/developers/apps/${appId}/webhook-endpoints/delete`, { endpoint_id: `x${c}` });
    await check('resend ids', d.driver, `/developers/apps/${appId}/deliveries/resend`, { event_id: `x${c}`, endpoint_id: `y${c}` });
    expect(answers.filter(([, , refused]) => !refused)).toEqual([]);
    // nothing was written
    expect(await app.apps.dataSource.query('SELECT count(*)::int AS n FROM apps')).toEqual(before);
  });

  it.each(Object.entries(CONTROLS))('consent pages and OAuth endpoints: %s in every field', async (_name, c) => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const answers: Array<[string, number]> = [];
    const page = async (what: string, path: string, form: Record<string, string | string[]>) => {
      const res = await driver.post(path, form);
      answers.push([what, isRefusedPage(res as never) ? 0 : res.status]);
    };
    await page('sign-in email', '/oauth/authorize/sign-in', { email: `${s.owner.email}${c}`, password: PASSWORD, code: '000000' });
    await page('sign-in password', '/oauth/authorize/sign-in', { email: s.owner.email, password: `${PASSWORD}${c}`, code: '000000' });
    // signed in, the consent form's fields
    const ok = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([ok.postStatus, ok.status]).toEqual([303, 200]);
    await page('decision', '/oauth/authorize/decision', { decision: `allow${c}`, account_ids: [s.organization.accounts[0].id], duration_days: '90' });
    await page('account id', '/oauth/authorize/decision', { decision: 'allow', account_ids: [`${s.organization.accounts[0].id}${c}`], duration_days: '90' });
    await page('duration', '/oauth/authorize/decision', { decision: 'allow', account_ids: [s.organization.accounts[0].id], duration_days: `9${c}0` });
    const connections = new PageDriver(app);
    await connections.get('/account/connections');
    const res = await connections.post('/account/connections/sign-in', { email: `${c}${s.owner.email}`, password: PASSWORD, code: '000000' });
    answers.push(['connections sign-in', isRefusedPage(res as never) ? 0 : res.status]);
    expect(answers.filter(([, status]) => status !== 0)).toEqual([]);
    // the client endpoints answer in their own JSON: 400 invalid_request
    for (const form of [
      { grant_type: 'authorization_code', code: `x${c}`, redirect_uri: 'http://127.0.0.1:8765/callback', code_verifier: 'v'.repeat(43), ...s.client },
      {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'http://127.0.0.1:8765/callback',
        code_verifier: 'v'.repeat(43),
        client_id: s.client.client_id,
        client_secret: `${s.client.client_secret}${c}`,
      },
    ]) {
      const token = await app.partner().post('/oauth/token').type('form').send(form);
      expect([token.status, token.body.error]).toEqual([400, 'invalid_request']);
    }
    const revoke = await app
      .partner()
      .post('/oauth/revoke')
      .type('form')
      .send({ token: `hat_${c}`, ...s.client });
    expect([revoke.status, revoke.body.error]).toEqual([400, 'invalid_request']);
  });

  it.each(Object.entries(CONTROLS))('GET /oauth/authorize: %s in a query parameter is an error page, never 500', async (_name, c) => {
    const s = await aConsentSetup(app);
    for (const extra of [
      { state: `st${c}` },
      { scope: `journal:prepare${c}` },
      { client_id: `${s.client.client_id}${c}` },
      { redirect_uri: `http://127.0.0.1:8765/callback${c}` },
      { code_challenge: `${'a'.repeat(43)}${c}` },
    ]) {
      const res = await new PageDriver(app).get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, extra)}`);
      expect([Object.keys(extra)[0], res.status < 500]).toEqual([Object.keys(extra)[0], true]);
    }
  });

  it.each(Object.entries(CONTROLS))('console API: %s in a JSON string a page shows is 400 invalid_input at its pointer', async (_name, c) => {
    const post = (path: string, body: unknown) =>
      app
        .console()
        .post(`/console/v1${path}`)
        .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
        .send(body as object);
    const org = await post('/organizations', { name: 'Bager Hansen ApS' });
    expect(org.status).toBe(201);
    const answers: Array<[string, number, string | undefined]> = [];
    const record = (what: string, res: { status: number; body: { code?: string; errors?: Array<{ pointer: string }> } }) =>
      answers.push([what, res.status, res.body.errors?.[0]?.pointer]);
    record('app name', await post('/apps', { name: `App${c}` }));
    record('organization name', await post('/organizations', { name: `Org${c}` }));
    record('account name', await post(`/organizations/${org.body.id}/accounts`, { number: '1000', name: `Kasse${c}` }));
    record('account number', await post(`/organizations/${org.body.id}/accounts`, { number: `10${c}00`, name: 'Kasse' }));
    record('tax code', await post(`/organizations/${org.body.id}/tax-codes`, { code: `I${c}25`, rate_basis_points: 2500 }));
    record('owner email', await post(`/organizations/${org.body.id}/owners`, { email: `o${c}@example.dk` }));
    record('owner password', await post(`/organizations/${org.body.id}/owners`, { email: 'o@example.dk', password: `${PASSWORD}${c}` }));
    record('sandbox project name', await post('/sandbox/projects', { name: `Projekt${c}` }));
    const theApp = await post('/apps', { name: 'App' });
    record('redirect URI', await post(`/apps/${theApp.body.id}/oauth`, { redirect_uris: [`http://127.0.0.1:8765/cb${c}`] }));
    record('webhook URL', await post(`/apps/${theApp.body.id}/webhook-endpoints`, { url: `http://127.0.0.1:9/h${c}`, environment: 'sandbox' }));
    expect(answers).toEqual([
      ['app name', 400, '/name'],
      ['organization name', 400, '/name'],
      ['account name', 400, '/name'],
      ['account number', 400, '/number'],
      ['tax code', 400, '/code'],
      ['owner email', 400, '/email'],
      ['owner password', 400, '/password'],
      ['sandbox project name', 400, '/name'],
      ['redirect URI', 400, '/redirect_uris/0'],
      ['webhook URL', 400, '/url'],
    ]);
  });
});

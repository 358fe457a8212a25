import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { DeveloperPurge } from '../../src/modules/developers/infrastructure/developer-purge';
import { aConsentSetup, authorizeQuery, nextCode, PageDriver, PASSWORD, pkcePair, postAndFollow, REDIRECT_URI, signInTry } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, DEV_PASSWORD, type Developer } from '../support/developer-fixtures';
import { PRODUCTION, SANDBOX } from '../support/fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;
const decoded = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/g, '/')
    .replace(/&#x3D;/g, '=')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

/**
 * CONTRACT §15 "A demo company, to try production alone": the developer's production organization,
 * marked demo, owned by the developer with the same email, password and authenticator; the developer's
 * own apps consentable to it before approval (and no other app), real hat_ tokens on the production base.
 */
describe('the demo company (CONTRACT §15)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(async () => {
    await app.close();
  });

  const consoleGet = (path: string) => app.console().get(`/console/v1${path}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);

  /** A developer's app with a redirect URI and a client secret, not submitted for review. */
  async function anUnapprovedAppWithClient(d: Developer, name = 'Bogføring Pro'): Promise<{ appId: string; secret: string; page: string }> {
    const appId = await anAppOnThePage(d, name);
    const saved = await d.driver.post(`/developers/apps/${appId}/redirect-uris`, { redirect_uris: REDIRECT_URI });
    expect(saved.status).toBe(303);
    await d.driver.get(`/developers/apps/${appId}/client-secret`);
    const secretPage = await postAndFollow(d.driver, `/developers/apps/${appId}/client-secret`, {});
    const secret = issued(secretPage.text);
    expect(secret).toMatch(/^hcs_/);
    const page = await d.driver.get(`/developers/apps/${appId}`);
    return { appId, secret, page: page.text };
  }

  const demoIdOn = (html: string) => /id="demo-company-id">([0-9a-f-]{36})</.exec(html)?.[1] as string;
  const connectHref = (html: string) => decoded(/id="connect-demo" href="([^"]+)"/.exec(html)?.[1] ?? '');
  const verifierOn = (html: string) => /id="demo-code-verifier">([^<]+)</.exec(html)?.[1] as string;

  /** The consent flow as the developer: sign in with the developer's own three factors, then the next page. */
  async function signInAsDeveloper(driver: PageDriver, d: Developer, authorizePath: string) {
    const page = await driver.get(authorizePath);
    expect(page.status).toBe(200);
    clock.advance(30_000);
    const posted = await driver.post('/oauth/authorize/sign-in', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    return posted;
  }

  it('is made with the account: production, marked demo for the operator, "Demo ApS – <email>", the sample chart, the developer its only owner', async () => {
    const d = await aDeveloper(app, clock);
    const created = await app
      .console()
      .post('/console/v1/developers')
      .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
      .send({ email: `other-${Date.now()}@example.dk`, password: DEV_PASSWORD });
    expect(created.status).toBe(201);
    expect(created.body.demo_organization_id).toMatch(/^[0-9a-f-]{36}$/);

    const appId = await anAppOnThePage(d);
    const page = await d.driver.get(`/developers/apps/${appId}`);
    expect(page.text).toContain('<h2 id="h-demo">Demo company</h2>');
    const demoId = demoIdOn(page.text);
    expect(demoId).toBeDefined();
    // no redirect URI yet: no link, a hint instead
    expect(page.text).not.toContain('id="connect-demo"');
    expect(page.text).toContain('Save a redirect URI under OAuth first');

    const read = await consoleGet(`/organizations/${demoId}`);
    expect(read.status).toBe(200);
    expect(read.body.demo).toBe(true);
    expect(read.body.name).toBe(`Demo ApS – ${d.email}`);
    expect(read.body.owners).toEqual([{ user_id: expect.any(String), email: d.email }]);
    expect(read.body.accounts.map((a: { number: string }) => a.number)).toEqual([
      '1000',
      '1100',
      '5000',
      '7000',
      '7500',
      '12000',
      '13000',
      '14500',
      '14600',
      '15000',
    ]);
    expect(read.body.tax_codes.length).toBeGreaterThanOrEqual(1);

    // its owner's password is the developer's: the operator cannot set another one for it, and enrolling the
    // developer's email as an owner elsewhere makes a user of its own (the demo identity stays the developer's)
    const ownerId = read.body.owners[0].user_id as string;
    const password = await consolePost(app, `/users/${ownerId}/password`, { password: 'ein anderes langes passwort' });
    expect(password.status).toBe(409);
    expect(password.body.code).toBe('resource_conflict');
    const elsewhere = await consolePost(app, '/organizations', { name: 'Rigtig kunde ApS' });
    const enrolled = await consolePost(app, `/organizations/${elsewhere.body.id}/owners`, { email: d.email });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.user_id).not.toBe(ownerId);
    expect(enrolled.body.totp_secret).toMatch(/^[A-Z2-7]+$/);
    expect((await consoleGet(`/organizations/${demoId}`)).body.owners).toEqual([{ user_id: ownerId, email: d.email }]);

    // an operator's organization is no demo company
    const org = await consolePost(app, '/organizations', { name: 'Kunde ApS' });
    expect((await consoleGet(`/organizations/${org.body.id}`)).body.demo).toBe(false);
  });

  it('an account made before demo companies existed gets its demo company on its first app page, once', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    // as the migration leaves an older account: no demo company recorded
    await app.apps.dataSource.query(`UPDATE developers SET demo_organization_id = NULL WHERE email = $1`, [d.email]);
    const first = demoIdOn((await d.driver.get(`/developers/apps/${appId}`)).text);
    const again = demoIdOn((await d.driver.get(`/developers/apps/${appId}`)).text);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).toBe(first);
    expect((await consoleGet(`/organizations/${first}`)).body).toMatchObject({ demo: true, name: `Demo ApS – ${d.email}` });
  });

  it("issue 45: the code verifier stays the same on every load of the app page in one session (the copied one still exchanges the code of a later load's link); another session has its own", async () => {
    const d = await aDeveloper(app, clock);
    const { appId, secret, page } = await anUnapprovedAppWithClient(d);
    const copied = verifierOn(page);
    expect(copied).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const reloaded = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(verifierOn(reloaded)).toBe(copied);
    expect(connectHref(reloaded)).toBe(connectHref(page));

    const driver = new PageDriver(app);
    expect((await signInAsDeveloper(driver, d, connectHref(reloaded))).status).toBe(303);
    const form = await driver.get('/oauth/authorize/continue');
    const accountId = /name="account_ids" value="([0-9a-f-]{36})"/.exec(form.text)?.[1] as string;
    const decision = await driver.post('/oauth/authorize/decision', { decision: 'allow', account_ids: [accountId], duration_days: '90' });
    const code = new URL(decision.headers.location as string).searchParams.get('code') as string;
    const token = await app
      .partner()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: copied, client_id: appId, client_secret: secret });
    expect(token.status).toBe(200);

    // another sign-in, another session: another verifier
    const other = new PageDriver(app);
    await other.get('/developers/signin');
    clock.advance(30_000);
    expect((await other.post('/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) })).status).toBe(303);
    expect(verifierOn((await other.get(`/developers/apps/${appId}`)).text)).not.toBe(copied);
  });

  it("Connect the demo company: the developer signs in with the account's email, password and authenticator, consents an unapproved app, and gets a hat_ token that works on the production base", async () => {
    const d = await aDeveloper(app, clock);
    const { appId, secret, page } = await anUnapprovedAppWithClient(d);
    const demoId = demoIdOn(page);
    const href = connectHref(page);
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe(appId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('organization_id')).toBe(demoId);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const driver = new PageDriver(app);
    const signedIn = await signInAsDeveloper(driver, d, href);
    expect(signedIn.status).toBe(303);
    const form = await driver.get('/oauth/authorize/continue');
    expect(form.status).toBe(200);
    expect(form.text).toContain('Allow access');
    expect(form.text).toContain(`Demo ApS – ${d.email}`.replace(/–/g, '–'));
    const accountId = /name="account_ids" value="([0-9a-f-]{36})"/.exec(form.text)?.[1] as string;
    const decision = await driver.post('/oauth/authorize/decision', { decision: 'allow', account_ids: [accountId], duration_days: '90' });
    expect(decision.status).toBe(303);
    const back = new URL(decision.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    const code = back.searchParams.get('code') as string;
    expect(code).toBeTruthy();

    const token = await app
      .partner()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifierOn(page), client_id: appId, client_secret: secret });
    expect(token.status).toBe(200);
    expect(token.body.access_token).toMatch(/^hat_[0-9A-Za-z]{46}$/);
    expect(token.body.organization_id).toBe(demoId);

    const accounts = await app.partner().get(`${PRODUCTION}/accounts`).set('Authorization', `Bearer ${token.body.access_token}`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.map((a: { id: string }) => a.id)).toEqual([accountId]);
    const grant = await app.partner().get(`${PRODUCTION}/grant`).set('Authorization', `Bearer ${token.body.access_token}`);
    expect(grant.body).toMatchObject({ environment: 'production', organization_id: demoId });
    // a production token, not a sandbox one
    expect((await app.partner().get(`${SANDBOX}/accounts`).set('Authorization', `Bearer ${token.body.access_token}`)).status).toBe(401);

    // the operator sees the grant on the demo company
    const grants = await consoleGet(`/organizations/${demoId}/grants`);
    expect(grants.body).toEqual([expect.objectContaining({ app_id: appId, revoked: false })]);

    // approving a revision later: the token was bound to "none approved", so it stops as §8 says for any new approval
    const rev = await consolePost(app, `/apps/${appId}/revisions`);
    await consolePost(app, `/apps/${appId}/revisions/${rev.body.id}/approve`);
    const after = await app.partner().get(`${PRODUCTION}/accounts`).set('Authorization', `Bearer ${token.body.access_token}`);
    expect(after.status).toBe(403);
    expect(after.body.code).toBe('app_revision_changed');
  });

  it("someone else's unapproved app cannot be consented to your demo company (access_denied), even when it names it", async () => {
    const mine = await aDeveloper(app, clock);
    const minePage = (await anUnapprovedAppWithClient(mine)).page;
    const myDemo = demoIdOn(minePage);
    const theirs = await aDeveloper(app, clock);
    const { page } = await anUnapprovedAppWithClient(theirs, 'Fremmed app');
    // their app's own link, with my demo company put in
    const url = new URL(connectHref(page), 'http://x');
    for (const organization of [null, myDemo]) {
      if (organization) url.searchParams.set('organization_id', organization);
      else url.searchParams.delete('organization_id');
      const driver = new PageDriver(app);
      const signedIn = await signInAsDeveloper(driver, mine, `${url.pathname}${url.search}`);
      expect(signedIn.status).toBe(303);
      const next = await driver.get('/oauth/authorize/continue');
      expect(next.status).toBe(303);
      const back = new URL(next.headers.location as string);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('code')).toBeNull();
    }
    expect((await consoleGet(`/organizations/${myDemo}/grants`)).body).toEqual([]);
  });

  it("an approved app of the operator is refused by a demo company too: access_denied on the pages, 409 on the console's grant", async () => {
    const d = await aDeveloper(app, clock);
    const myDemo = demoIdOn((await anUnapprovedAppWithClient(d)).page);
    const s = await aConsentSetup(app);
    const { challenge } = pkcePair();
    const driver = new PageDriver(app);
    await signInAsDeveloper(driver, d, `/oauth/authorize?${authorizeQuery(s, challenge)}`);
    const next = await driver.get('/oauth/authorize/continue');
    expect(next.status).toBe(303);
    expect(new URL(next.headers.location as string).searchParams.get('error')).toBe('access_denied');

    const demo = await consoleGet(`/organizations/${myDemo}`);
    clock.advance(30_000);
    const grant = await consolePost(app, `/organizations/${myDemo}/grants`, {
      app_id: s.app.id,
      owner_user_id: demo.body.owners[0].user_id,
      totp_code: totpCodeAt(d.secret, clock.nowMs()),
      account_ids: [demo.body.accounts[0].id],
      scopes: ['journal:prepare'],
    });
    expect(grant.status).toBe(409);
    expect(grant.body.code).toBe('resource_conflict');
    expect((await consoleGet(`/organizations/${myDemo}/grants`)).body).toEqual([]);
  });

  it('any other organization still refuses an unapproved app: unauthorized_client on the pages, 409 app_not_approved on the console', async () => {
    const d = await aDeveloper(app, clock);
    const { appId } = await anUnapprovedAppWithClient(d);
    const s = await aConsentSetup(app);
    const { challenge } = pkcePair();
    const driver = new PageDriver(app);
    // the developer's app, an ordinary owner: sign-in is offered (the app could go to its developer's demo company) …
    const q = authorizeQuery({ ...s, client: { client_id: appId, client_secret: '' } }, challenge);
    expect((await driver.get(`/oauth/authorize?${q}`)).status).toBe(200);
    const posted = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(posted.status).toBe(303);
    // … but the owner's organization takes only approved apps
    const next = await driver.get('/oauth/authorize/continue');
    expect(next.status).toBe(303);
    expect(new URL(next.headers.location as string).searchParams.get('error')).toBe('unauthorized_client');

    const grant = await consolePost(app, `/organizations/${s.organization.id}/grants`, {
      app_id: appId,
      owner_user_id: s.owner.user_id,
      totp_code: nextCode(clock, s),
      account_ids: [s.organization.accounts[0].id],
      scopes: ['journal:prepare'],
    });
    expect(grant.status).toBe(409);
    expect(grant.body.code).toBe('app_not_approved');

    // an operator's app without approval and without a developer: refused before sign-in, as before
    const bare = await consolePost(app, '/apps', { name: 'Ikke godkendt' });
    await consolePost(app, `/apps/${bare.body.id}/oauth`, { redirect_uris: [REDIRECT_URI] });
    const refused = await new PageDriver(app).get(
      `/oauth/authorize?${authorizeQuery({ ...s, client: { client_id: bare.body.id, client_secret: '' } }, challenge)}`,
    );
    expect(refused.status).toBe(303);
    expect(new URL(refused.headers.location as string).searchParams.get('error')).toBe('unauthorized_client');
  });

  it('the same authenticator: a code the developer used to sign in to the console is used up on the consent page too, and a wrong password fails', async () => {
    const d = await aDeveloper(app, clock);
    const { page } = await anUnapprovedAppWithClient(d);
    clock.advance(30_000);
    const code = totpCodeAt(d.secret, clock.nowMs());
    const console = new PageDriver(app);
    await console.get('/developers/signin');
    expect((await console.post('/developers/signin', { email: d.email, password: DEV_PASSWORD, code })).status).toBe(303);
    const driver = new PageDriver(app);
    expect((await driver.get(connectHref(page))).status).toBe(200);
    const reused = await signInTry(driver, '/oauth/authorize/sign-in', { email: d.email, password: DEV_PASSWORD, code });
    expect(reused.answer).toBe('refused');
    clock.advance(30_000);
    const wrongPassword = await signInTry(driver, '/oauth/authorize/sign-in', {
      email: d.email,
      password: 'not the password at all',
      code: totpCodeAt(d.secret, clock.nowMs()),
    });
    expect(wrongPassword.answer).toBe('refused');
  });
  it('goes with its developer: a developer gone 90 days is purged with the demo company, its grant, what its token wrote and its owner; the grant never counts as a customer', async () => {
    const d = await aDeveloper(app, clock);
    const { appId, secret, page } = await anUnapprovedAppWithClient(d, 'Glemt demo');
    const demoId = demoIdOn(page);
    const driver = new PageDriver(app);
    expect((await signInAsDeveloper(driver, d, connectHref(page))).status).toBe(303);
    const form = await driver.get('/oauth/authorize/continue');
    const accountId = /name="account_ids" value="([0-9a-f-]{36})"/.exec(form.text)?.[1] as string;
    const code = new URL(
      (await driver.post('/oauth/authorize/decision', { decision: 'allow', account_ids: [accountId], duration_days: '90' })).headers.location as string,
    ).searchParams.get('code');
    const token = await app
      .partner()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifierOn(page), client_id: appId, client_secret: secret });
    const product = await app
      .partner()
      .post(`${PRODUCTION}/products`)
      .set('Authorization', `Bearer ${token.body.access_token}`)
      .set('Idempotency-Key', `demo-${Date.now()}`)
      .send({ code: 'DEMO', name: 'Demovare' });
    expect(product.status).toBe(201);
    const n = async (sql: string, params: unknown[]) => Number((await app.apps.dataSource.query(sql, params))[0].n);
    expect(await n(`SELECT count(*) AS n FROM users WHERE lower(email) = lower($1) AND developer_id IS NOT NULL`, [d.email])).toBe(1);

    clock.advance(91 * 24 * 3600_000);
    expect((await app.apps.partner.get(DeveloperPurge, { strict: false }).purge()).developers).toBeGreaterThanOrEqual(1);
    expect(await n(`SELECT count(*) AS n FROM developers WHERE email = $1`, [d.email])).toBe(0);
    expect((await consoleGet(`/organizations/${demoId}`)).status).toBe(404);
    expect(await n(`SELECT count(*) AS n FROM users WHERE lower(email) = lower($1)`, [d.email])).toBe(0);
    for (const table of ['grants', 'products', 'operation_receipts', 'idempotency_records', 'webhook_outbox', 'access_tokens', 'authorization_codes']) {
      expect(await n(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [demoId])).toBe(0);
    }
    expect((await app.partner().get(`${PRODUCTION}/accounts`).set('Authorization', `Bearer ${token.body.access_token}`)).status).toBe(401);
  });
});

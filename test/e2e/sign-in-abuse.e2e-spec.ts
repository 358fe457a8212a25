import { randomBytes } from 'node:crypto';
import { generateAccessToken } from '../../src/modules/auth/access/domain/access-token';
import { AccessRepository } from '../../src/modules/auth/access/domain/access.repository';
import { ConsentSessionService } from '../../src/modules/auth/consent/application/consent-session.service';
import { OAuthClientService } from '../../src/modules/auth/consent/application/oauth-client.service';
import { sessionIdHash, signInKey, WebPurge, WebSessions } from '../../src/shared/web';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import {
  aConsentSetup,
  authorizeQuery,
  consentOverHttp,
  nextCode,
  PageDriver,
  PASSWORD,
  answerOf,
  pkcePair,
  postAndFollow,
  signInTry,
} from '../support/consent-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 27 findings 3 and 4 (CONTRACT §11 v4): the sign-in lockout is counted per (email, client
 * address), taken and recorded before the password is checked, so a burst cannot slip past it and a
 * stranger elsewhere cannot lock the owner out.
 */
describe('sign-in lockout per email and client address (CONTRACT §11)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 10));

  beforeAll(async () => {
    // the peer is 127.0.0.1 (loopback): X-Forwarded-For names the client
    app = await createTestApp({ trustProxy: 'loopback' }, { clock });
  });
  afterAll(() => app.close());

  it('finding 3: of 30 concurrent guesses for one email, at most 5 are checked; the right password sent after the first 20 does not get in', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    driver.headers = { 'X-Forwarded-For': '203.0.113.10' };
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const code = nextCode(clock, s);
    const burst: Array<ReturnType<PageDriver['post']>> = [];
    for (let i = 0; i < 30; i++) {
      const password = i === 20 ? PASSWORD : `wrong guess ${i}`;
      burst.push(driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password, code }));
    }
    const answers = await Promise.all(burst);
    // CONTRACT §21: each refusal leads back to the form, whose page says why
    const outcomes = await Promise.all(answers.map((r) => answerOf(app, driver, r, driver.headers)));
    const checked = outcomes.filter((o) => o !== 'locked');
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(outcomes.every((o) => o === 'refused' || o === 'locked')).toBe(true);
    expect(outcomes[20]).toBe('locked');
    expect(answers[20].headers.location).toBe('/oauth/authorize/sign-in');
    // and it stays locked from that address, right password and code or not (the form shown again first, as a browser does)
    await driver.get('/oauth/authorize/sign-in');
    const after = await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(after.answer).toBe('locked');
  });

  it('finding 4: 5 failures from address A lock A, not B: the owner signs in from B', async () => {
    const s = await aConsentSetup(app);
    const fromA = new PageDriver(app);
    fromA.headers = { 'X-Forwarded-For': '198.51.100.7' };
    await fromA.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      expect((await signInTry(fromA, '/oauth/authorize/sign-in', { email: s.owner.email, password: `stranger ${i}`, code: '000000' })).answer).toBe('refused');
    }
    const lockedA = await signInTry(fromA, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(lockedA.answer).toBe('locked');

    const fromB = new PageDriver(app);
    fromB.headers = { 'X-Forwarded-For': '192.0.2.44' };
    await fromB.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const signedIn = await postAndFollow(fromB, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([signedIn.postStatus, signedIn.status]).toEqual([303, 200]);
    expect(signedIn.text).toContain('Allow access');
    // the connections page counts the same way
    const connections = new PageDriver(app);
    connections.headers = { 'X-Forwarded-For': '192.0.2.44' };
    await connections.get('/account/connections');
    expect((await connections.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(303);
    fromA.headers = { 'X-Forwarded-For': '198.51.100.7' };
    expect((await signInTry(fromA, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).answer).toBe('locked');
  });

  it('the proxy chain: only the address the trusted proxy appended counts (a client cannot pick its own)', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    // loopback is trusted, so the right-most untrusted entry is the client: the left-most entries are the client's own claim
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      driver.headers = { 'X-Forwarded-For': `10.9.9.${i}, 203.0.113.99` };
      expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: `chain ${i}`, code: '000000' })).answer).toBe('refused');
    }
    driver.headers = { 'X-Forwarded-For': '10.9.9.200, 203.0.113.99' };
    expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).answer).toBe('locked');
  });
});

describe('without TRUST_PROXY the peer is the client address (CONTRACT §2)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  it('ignores X-Forwarded-For: 5 failures lock the peer whatever the header says', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++) {
      driver.headers = { 'X-Forwarded-For': `198.51.100.${i}` };
      expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: `wrong ${i}`, code: '000000' })).answer).toBe('refused');
    }
    driver.headers = { 'X-Forwarded-For': '192.0.2.1' };
    expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).answer).toBe('locked');
  });
});

/**
 * Issue 27 finding 5 (CONTRACT §12): calls without a known identity are limited per client address,
 * across the sign-in POSTs, /oauth/token, /oauth/revoke and partner calls with a missing, malformed or
 * unknown token, and refused before any password hash or database look-up.
 */
describe('the anonymous limit per client address (CONTRACT §12)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 11, 0, 10));
  const LIMIT = 6;

  beforeAll(async () => {
    app = await createTestApp({ trustProxy: 'loopback', rateLimitAnonymousPerMinute: LIMIT }, { clock });
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  let addresses = 0;
  const anAddress = () => `203.0.113.${++addresses}`;
  const strangerEmail = () => `stranger-${randomBytes(4).toString('hex')}@example.dk`;

  it('counts sign-in POSTs of both pages; the 7th is a 429 page with Retry-After, before the session or a password is looked at', async () => {
    const s = await aConsentSetup(app);
    const address = anAddress();
    const authorize = new PageDriver(app);
    authorize.headers = { 'X-Forwarded-For': address };
    await authorize.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const connections = new PageDriver(app);
    connections.headers = { 'X-Forwarded-For': address };
    await connections.get('/account/connections');
    for (let i = 0; i < LIMIT; i++) {
      const driver = i % 2 === 0 ? authorize : connections;
      const path = i % 2 === 0 ? '/oauth/authorize/sign-in' : '/account/connections/sign-in';
      expect((await signInTry(driver, path, { email: strangerEmail(), password: 'guess', code: '000000' })).answer).toBe('refused');
    }
    const load = jest.spyOn(app.apps.partner.get(WebSessions), 'load');
    const signIn = jest.spyOn(app.apps.partner.get(ConsentSessionService), 'signIn');
    const refused = await authorize.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(120); // the sliding window: the current minute's calls still count, weighted, in the next
    expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(refused.text).toContain('Too many');
    expect(load).not.toHaveBeenCalled();
    expect(signIn).not.toHaveBeenCalled();
    jest.restoreAllMocks();

    // another address is not affected: the owner signs in from it
    const elsewhere = new PageDriver(app);
    elsewhere.headers = { 'X-Forwarded-For': anAddress() };
    await elsewhere.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const ok = await postAndFollow(elsewhere, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([ok.postStatus, ok.status]).toEqual([303, 200]);
    expect(ok.text).toContain('Allow access');
  });

  it('counts POST /oauth/token and /oauth/revoke together; over it 429 rate_limited with Retry-After before the client is authenticated', async () => {
    const s = await aConsentSetup(app);
    const address = anAddress();
    const wrong = () => ({ client_id: s.client.client_id, client_secret: 'hcs_wrong' });
    for (let i = 0; i < LIMIT; i++) {
      const path = i % 2 === 0 ? '/oauth/token' : '/oauth/revoke';
      const form =
        i % 2 === 0
          ? { grant_type: 'authorization_code', code: 'x', redirect_uri: 'http://127.0.0.1:8765/callback', code_verifier: 'v'.repeat(43), ...wrong() }
          : { token: 'hat_x', ...wrong() };
      const res = await app.partner().post(path).set('X-Forwarded-For', address).type('form').send(form);
      expect(res.status).toBe(401);
    }
    const authenticate = jest.spyOn(app.apps.partner.get(OAuthClientService), 'authenticate');
    const refused = await app
      .partner()
      .post('/oauth/token')
      .set('X-Forwarded-For', address)
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'x', ...wrong() });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limited');
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(authenticate).not.toHaveBeenCalled();
    // another address still gets the usual answer
    expect((await app.partner().post('/oauth/token').set('X-Forwarded-For', anAddress()).type('form').send(wrong())).status).toBe(401);
  });

  it('counts partner calls with a missing, malformed or unknown token; over it a missing or malformed one is 429 before the look-up, a well-formed one after its one look-up; a known token still works; health, documents and metadata are not limited', async () => {
    const p = await aSandboxProject(app);
    const address = anAddress();
    const body = aJournal(p.accounts.map((a) => a.id));
    const call = (authorization?: string) => {
      const r = app.partner().post(`${SANDBOX}/journal/prepare`).set('X-Forwarded-For', address);
      return (authorization === undefined ? r : r.set('Authorization', authorization)).send(body);
    };
    const wrongChecksum = `Bearer ${p.token.slice(0, -6)}AAAAAA`;
    // a well-formed token (right checksum) that was never issued: found unknown only by the look-up
    const wellFormedUnknown = generateAccessToken('sandbox');
    const tries = [undefined, 'Bearer not-a-token', wrongChecksum, `Bearer ${wellFormedUnknown}`, undefined, `Bearer ${generateAccessToken('production')}`];
    for (const authorization of tries) expect((await call(authorization)).status).toBe(401);
    const findToken = jest.spyOn(app.apps.partner.get(AccessRepository), 'findToken');
    for (const authorization of [undefined, 'Bearer not-a-token', wrongChecksum]) {
      const refused = await call(authorization);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['ratelimit']).toBeUndefined();
    }
    expect(findToken).not.toHaveBeenCalled();
    // CONTRACT v5 §12: a well-formed token with a valid checksum is looked up (once), and refused only as unknown
    const unknown = await call(`Bearer ${wellFormedUnknown}`);
    expect(unknown.status).toBe(429);
    expect(findToken).toHaveBeenCalledTimes(1);
    // a token never used from this address before is a known identity: not refused by the anonymous limit
    const known = await call(`Bearer ${p.token}`);
    expect(known.status).toBe(200);
    expect(findToken).toHaveBeenCalledTimes(2);
    for (const path of [
      '/health/live',
      '/health/ready',
      '/api/partner/v1/openapi.json',
      `${SANDBOX}/openapi.json`,
      '/.well-known/oauth-authorization-server',
      '/docs',
    ]) {
      const res = await app.partner().get(path).set('X-Forwarded-For', address).redirects(1);
      expect([path, res.status]).toEqual([path, 200]);
    }
  });

  it('an IPv6 client is counted by its /64: another address of the same /64 is refused, the next /64 is not', async () => {
    const call = (address: string) => app.partner().post(`${SANDBOX}/journal/prepare`).set('X-Forwarded-For', address).send({});
    for (let i = 1; i <= LIMIT; i++) expect((await call(`2001:db8:35:1::${i.toString(16)}`)).status).toBe(401);
    const sameSlash64 = await call('2001:db8:35:1:ffff:ffff:ffff:fffe');
    expect(sameSlash64.status).toBe(429);
    expect((await call('2001:db8:35:2::1')).status).toBe(401);
  });

  it('forms, OAuth clients and partner 401s each have their own budget: using one up leaves the others', async () => {
    const s = await aConsentSetup(app);
    const address = anAddress();
    const token = (client_secret: string) =>
      app
        .partner()
        .post('/oauth/token')
        .set('X-Forwarded-For', address)
        .type('form')
        .send({
          client_id: s.client.client_id,
          client_secret,
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: 'http://127.0.0.1:8765/callback',
          code_verifier: 'v'.repeat(43),
        });
    for (let i = 0; i < LIMIT; i++) expect((await token('hcs_wrong')).status).toBe(401);
    expect((await token('hcs_wrong')).status).toBe(429);
    // valid client credentials over the limit: looked up, not refused (the code is what is wrong here)
    const valid = await token(s.client.client_secret);
    expect([valid.status, valid.body.error]).toEqual([400, 'invalid_grant']);
    // the partner budget of the same address is untouched
    expect((await app.partner().post(`${SANDBOX}/journal/prepare`).set('X-Forwarded-For', address).send({})).status).toBe(401);
    // and so is its forms budget
    const page = new PageDriver(app);
    page.headers = { 'X-Forwarded-For': address };
    await page.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    // a successful sign-in answers 303 to the consent page (CONTRACT §18)
    expect((await page.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(303);
  });

  it('valid client credentials do not count against the address; failed ones do', async () => {
    const s = await aConsentSetup(app);
    const address = anAddress();
    const token = (client_secret: string) =>
      app
        .partner()
        .post('/oauth/token')
        .set('X-Forwarded-For', address)
        .type('form')
        .send({
          client_id: s.client.client_id,
          client_secret,
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: 'http://127.0.0.1:8765/callback',
          code_verifier: 'v'.repeat(43),
        });
    // three times the limit of calls with valid credentials (wrong codes): none counted
    for (let i = 0; i < 3 * LIMIT; i++) expect((await token(s.client.client_secret)).status).toBe(400);
    for (let i = 0; i < LIMIT; i++) expect((await token('hcs_wrong')).status).toBe(401);
    expect((await token('hcs_wrong')).status).toBe(429);
  });
});

describe('RATE_LIMIT_ANONYMOUS_PER_MINUTE=0 turns the anonymous limit off (CONTRACT §2)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ rateLimitAnonymousPerMinute: 0 });
  });
  afterAll(() => app.close());

  it('answers 401 to 40 calls without a token from one address', async () => {
    for (let i = 0; i < 40; i++) expect((await app.partner().post(`${SANDBOX}/journal/prepare`).send({})).status).toBe(401);
  });
});

/**
 * Issue 27 finding 5 (CONTRACT §12): no session row is written before a form is posted (every cookieless
 * page view wrote one), and sessions, sign-in failures and lockouts are purged once expired.
 */
describe('what unauthenticated routes write (CONTRACT §12)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 10));
  const count = async (sql: string, params: unknown[] = []) => Number((await app.apps.dataSource.query(sql, params))[0].n);
  const sessions = () => count('SELECT count(*) AS n FROM web_sessions');

  beforeAll(async () => {
    app = await createTestApp({ trustProxy: 'loopback' }, { clock });
  });
  afterAll(() => app.close());

  it('cookieless page views write no session row; a failed sign-in writes one (its message), a successful sign-in replaces it and the flow completes', async () => {
    const s = await aConsentSetup(app);
    const before = await sessions();
    for (let i = 0; i < 5; i++) {
      const page = await app.partner().get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      expect(page.status).toBe(200);
      expect((page.headers['set-cookie'] as unknown as string[]).some((c) => c.startsWith('consent_session='))).toBe(true);
      const connections = await app.partner().get('/account/connections');
      expect(connections.status).toBe(200);
      // CONTRACT §11: its forms post to this origin only
      expect(connections.headers['content-security-policy']).toContain("form-action 'self';");
    }
    expect(await sessions()).toBe(before);

    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: 'wrong', code: '000000' })).answer).toBe('refused');
    // CONTRACT §21: the refusal's message waits for the form's GET in the session, a row from now on (a
    // form was posted: §12 allows it); a second refusal adds none, and sign-in replaces it
    expect(await sessions()).toBe(before + 1);
    expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: 'wrong again', code: '000000' })).answer).toBe('refused');
    expect(await sessions()).toBe(before + 1);
    const signedIn = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect(signedIn.status).toBe(303);
    expect(await sessions()).toBe(before + 1);
    expect(
      await count('SELECT count(*) AS n FROM web_sessions WHERE id_hash = $1', [
        sessionIdHash(decodeURIComponent(driver.cookies.get('consent_session') as string)),
      ]),
    ).toBe(1);

    const { location } = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge });
    expect(new URL(location).searchParams.get('code')).toMatch(/.{20,}/);
  });

  it('a pending session cookie that was tampered with, or sealed for another purpose, is refused (403)', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    const cookie = decodeURIComponent(driver.cookies.get('consent_session') as string);
    expect(cookie.startsWith('p.')).toBe(true);
    const tampered = cookie.slice(0, -3) + (cookie.endsWith('AAA') ? 'BBB' : 'AAA');
    driver.cookies.set('consent_session', encodeURIComponent(tampered));
    expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(403);
    // the connections page's pending session does not open the authorize flow
    const other = new PageDriver(app);
    await other.get('/account/connections');
    driver.cookies.set('consent_session', other.cookies.get('consent_session') as string);
    expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(403);
  });

  it('a pending session expires after 30 minutes like a stored one', async () => {
    const s = await aConsentSetup(app);
    const driver = new PageDriver(app);
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    clock.advance(30 * 60_000 + 1_000);
    expect((await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(403);
  });

  it('purges expired sessions, failures out of the window and ended lockouts in batches, and keeps what still counts', async () => {
    const s = await aConsentSetup(app);
    const key = signInKey('owner', s.owner.email);
    const address = '198.51.100.80';
    const driver = new PageDriver(app);
    driver.headers = { 'X-Forwarded-For': address };
    await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    for (let i = 0; i < 5; i++)
      expect((await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: `wrong ${i}`, code: '000000' })).answer).toBe('refused');
    // a signed-in session from elsewhere, and 600 expired sessions (more than one batch)
    const owner = new PageDriver(app);
    await owner.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect((await owner.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(303);
    const signedInHash = sessionIdHash(decodeURIComponent(owner.cookies.get('consent_session') as string));
    await app.apps.dataSource.query(
      `INSERT INTO web_sessions (id_hash, csrf_secret, purpose, data, expires_at)
       SELECT 'expired-' || g, 'x', 'authorize', '{}', $1::timestamptz FROM generate_series(1, 600) g`,
      [new Date(clock.nowMs() - 1_000)],
    );
    const purge = app.apps.partner.get(WebPurge);
    const first = await purge.purgeExpired();
    expect(first.sessions).toBeGreaterThanOrEqual(600);
    expect(await count(`SELECT count(*) AS n FROM web_sessions WHERE id_hash LIKE 'expired-%'`)).toBe(0);
    // still in force: the lockout of the pair, its failures, the signed-in session
    expect(await count('SELECT count(*) AS n FROM sign_in_lockouts WHERE email_key = $1 AND client_address = $2', [key, address])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM sign_in_failures WHERE email_key = $1', [key])).toBe(5);
    expect(await count('SELECT count(*) AS n FROM web_sessions WHERE id_hash = $1', [signedInHash])).toBe(1);

    clock.advance(31 * 60_000);
    const later = await purge.purgeExpired();
    expect(later.failures).toBeGreaterThanOrEqual(5);
    expect(later.lockouts).toBeGreaterThanOrEqual(1);
    expect(await count('SELECT count(*) AS n FROM sign_in_lockouts WHERE email_key = $1', [key])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM sign_in_failures WHERE email_key = $1', [key])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM web_sessions WHERE id_hash = $1', [signedInHash])).toBe(0);
    // and the owner signs in from that address again
    const again = new PageDriver(app);
    again.headers = { 'X-Forwarded-For': address };
    await again.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect((await again.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) })).status).toBe(303);
  });
});

import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import * as oauth from 'oauth4webapi';
import { SCOPES } from '../../src/shared/domain/scopes';
import { aJournal, PRODUCTION } from '../support/fixtures';
import {
  ALL_SCOPES,
  aConsentSetup,
  authorizeQuery,
  type ConsentSetup,
  consentOverHttp,
  nextCode,
  PageDriver,
  PASSWORD,
  pkcePair,
  REDIRECT_URI,
  SEEN,
  postAndFollow,
  signInTry,
} from '../support/consent-fixtures';
import { anApprovedApp, aProductionOrganization, consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, describeNothing, onPostgres, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const ISSUER = 'http://localhost:3000';
const SIGN_IN_FAILED = 'Sign-in failed. Check your email, password and authenticator code, and try again.';

describe('owner consent: OAuth 2.0 authorization code with PKCE (CONTRACT §10, §11)', () => {
  let app: TestApp;
  let base: string;
  let as: oauth.AuthorizationServer;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  const logLines: string[] = [];
  /** every secret the tests saw: none may appear in a log line */
  const secrets = new Set<string>();

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestApp({ logLevel: 'info', publicOrigin: ISSUER }, { clock, logStream });
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    as = { issuer: ISSUER, token_endpoint: `${base}/oauth/token`, revocation_endpoint: `${base}/oauth/revoke` };
  });
  afterAll(() => app.close());

  const opts = { [oauth.allowInsecureRequests]: true };
  const clientOf = (s: ConsentSetup): oauth.Client => ({ client_id: s.client.client_id });

  async function setup(options: Parameters<typeof aConsentSetup>[1] = {}): Promise<ConsentSetup> {
    const s = await aConsentSetup(app, options);
    secrets.add(s.client.client_secret).add(s.owner.totp_secret).add(PASSWORD);
    return s;
  }

  /** The consent pages over HTTP, then the code exchanged by oauth4webapi with client_secret_basic. */
  async function consentAndToken(s: ConsentSetup, options: { accountIds?: string[]; mandate?: boolean; durationDays?: string } = {}) {
    const { verifier, challenge } = pkcePair();
    const { location } = await consentOverHttp(app, clock, s, { challenge, ...options });
    const params = oauth.validateAuthResponse(as, clientOf(s), new URL(location), 'st-123');
    secrets.add(params.get('code') as string);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      clientOf(s),
      oauth.ClientSecretBasic(s.client.client_secret),
      params,
      REDIRECT_URI,
      verifier,
      opts,
    );
    const token = await oauth.processAuthorizationCodeResponse(as, clientOf(s), response);
    secrets.add(token.access_token);
    return { token, code: params.get('code') as string, verifier, location };
  }

  function prepare(token: string, accounts: string[]) {
    return app.partner().post(`${PRODUCTION}/journal/prepare`).set('Authorization', `Bearer ${token}`).send(aJournal(accounts));
  }

  function tokenForm(form: Record<string, string>, basic?: string) {
    const req = app.partner().post('/oauth/token').type('form');
    if (basic) req.set('Authorization', `Basic ${Buffer.from(basic).toString('base64')}`);
    return req.send(new URLSearchParams(form).toString());
  }

  async function aCode(s: ConsentSetup) {
    const { verifier, challenge } = pkcePair();
    const { location } = await consentOverHttp(app, clock, s, { challenge });
    const code = new URL(location).searchParams.get('code') as string;
    secrets.add(code);
    return { code, verifier };
  }

  describe('console: owners with passwords, OAuth clients, the app read (§10)', () => {
    it('enrols an owner with a password; the same email in another organization is the same user, with totp_secret null', async () => {
      const s = await setup();
      const other = await aProductionOrganization(app, { accounts: 1 });
      const again = await consolePost(app, `/organizations/${other.id}/owners`, { email: s.owner.email.toUpperCase() });
      expect(again.status).toBe(201);
      expect(again.body).toEqual({ user_id: s.owner.user_id, totp_secret: null });
      // contract v4: a password for a user that has one is 409, never silently dropped (owner-password.e2e-spec.ts)
      const withPassword = await consolePost(app, `/organizations/${other.id}/owners`, { email: s.owner.email, password: 'another password 123' });
      expect(withPassword.status).toBe(409);
    });

    it('refuses a password outside 12–128 characters at /password', async () => {
      const org = await aProductionOrganization(app, { accounts: 1 });
      for (const password of ['elleve tegn', 'x'.repeat(129), 12]) {
        const res = await consolePost(app, `/organizations/${org.id}/owners`, { email: 'short@example.dk', password });
        expect([res.status, res.body.code, res.body.errors?.[0]?.pointer]).toEqual([400, 'invalid_input', '/password']);
      }
      const nullPassword = await consolePost(app, `/organizations/${org.id}/owners`, { email: `nopassword-${Date.now()}@example.dk`, password: null });
      expect(nullPassword.status).toBe(201);
      expect(nullPassword.body.totp_secret).toMatch(/^[A-Z2-7]+$/);
    });

    it('registers redirect URIs and a client secret shown once; a new registration replaces the secret', async () => {
      const theApp = await anApprovedApp(app, 'Registrering');
      const first = await consolePost(app, `/apps/${theApp.id}/oauth`, { redirect_uris: ['https://app.example/cb', 'http://localhost:8080/cb'] });
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual(['client_id', 'client_secret', 'redirect_uris']);
      expect(first.body.client_id).toBe(theApp.id);
      expect(first.body.client_secret).toMatch(/^hcs_[0-9A-Za-z]{40}$/);
      expect(first.body.redirect_uris).toEqual(['https://app.example/cb', 'http://localhost:8080/cb']);
      const second = await consolePost(app, `/apps/${theApp.id}/oauth`, { redirect_uris: ['http://127.0.0.1/cb'] });
      expect(second.body.client_secret).not.toBe(first.body.client_secret);
      secrets.add(first.body.client_secret).add(second.body.client_secret);
      const old = await tokenForm(
        { grant_type: 'authorization_code', code: 'x', redirect_uri: 'http://127.0.0.1/cb', code_verifier: 'y'.repeat(43) },
        `${theApp.id}:${first.body.client_secret}`,
      );
      expect([old.status, old.body.error]).toEqual([401, 'invalid_client']);

      const read = await app.console().get(`/console/v1/apps/${theApp.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: theApp.id,
        name: 'Registrering',
        revisions: [{ id: theApp.revision_id, number: 1, approved: true }],
        redirect_uris: ['http://127.0.0.1/cb'],
        webhook_endpoints: [],
      });
      expect(read.text).not.toContain('hcs_');
    });

    it('reads an app without registration or approval: redirect_uris empty, revision not approved', async () => {
      const created = await consolePost(app, '/apps', { name: 'Ny app' });
      const rev = await consolePost(app, `/apps/${created.body.id}/revisions`);
      const read = await app.console().get(`/console/v1/apps/${created.body.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect(read.body).toEqual({
        id: created.body.id,
        name: 'Ny app',
        revisions: [{ id: rev.body.id, number: 1, approved: false }],
        redirect_uris: [],
        webhook_endpoints: [],
      });
      const unknown = await app.console().get('/console/v1/apps/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
      const noKey = await app.console().get(`/console/v1/apps/${created.body.id}`);
      expect(noKey.status).toBe(401);
    });

    it('refuses redirect URIs that are not https (http only on localhost/127.0.0.1), relative, or with a fragment, at their pointer', async () => {
      const theApp = await anApprovedApp(app);
      const res = await consolePost(app, `/apps/${theApp.id}/oauth`, {
        redirect_uris: ['https://ok.example/cb', 'http://example.com/cb', '/relative', 'https://app.example/cb#frag', 42],
      });
      expect([res.status, res.body.code]).toEqual([400, 'invalid_input']);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
        '/redirect_uris/1',
        '/redirect_uris/2',
        '/redirect_uris/3',
        '/redirect_uris/4',
      ]);
      for (const body of [{ redirect_uris: [] }, { redirect_uris: Array(11).fill('https://a.example/cb') }, {}]) {
        const bad = await consolePost(app, `/apps/${theApp.id}/oauth`, body);
        expect([bad.status, bad.body.errors?.[0]?.pointer]).toEqual([400, '/redirect_uris']);
      }
      const unknown = await consolePost(app, '/apps/00000000-0000-4000-8000-000000000000/oauth', { redirect_uris: ['https://a.example/cb'] });
      expect(unknown.status).toBe(404);
    });
  });

  it('publishes RFC 8414 metadata with issuer = PUBLIC_ORIGIN', async () => {
    const res = await app.partner().get('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      // CONTRACT §11: every scope of §8, which the registry holds (src/shared/domain/scopes.spec.ts pins the contract's five)
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      ui_locales_supported: ['da', 'en'],
    });
    const discovered = await oauth.processDiscoveryResponse(
      new URL(ISSUER),
      new Response(res.text, { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    expect(discovered.issuer).toBe(ISSUER);
  });

  it('RFC 9207: the authorization response carries iss, and oauth4webapi (which then requires it) accepts it', async () => {
    const s = await setup();
    const { location } = await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge });
    const loc = new URL(location);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT_URI);
    expect([...loc.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
    expect(loc.searchParams.get('iss')).toBe(ISSUER);
    const strict = { ...as, authorization_response_iss_parameter_supported: true };
    expect(oauth.validateAuthResponse(strict, clientOf(s), loc, 'st-123').get('code')).toBe(loc.searchParams.get('code'));
    // a response without iss, or from another issuer, is refused by such a client
    const without = new URL(location);
    without.searchParams.delete('iss');
    expect(() => oauth.validateAuthResponse(strict, clientOf(s), without, 'st-123')).toThrow();
    const mixedUp = new URL(location);
    mixedUp.searchParams.set('iss', 'https://other-issuer.example');
    expect(() => oauth.validateAuthResponse(strict, clientOf(s), mixedUp, 'st-123')).toThrow();
  });

  describe('/oauth/authorize error rules', () => {
    let s: ConsentSetup;
    const { challenge } = pkcePair();
    beforeAll(async () => {
      s = await setup();
    });

    it.each([
      ['an unknown client_id', { client_id: '00000000-0000-4000-8000-000000000000' }, 'client_id'],
      ['a client_id that is not an app id', { client_id: 'nope' }, 'client_id'],
      ['a redirect_uri not registered', { redirect_uri: 'http://127.0.0.1:8765/other' }, 'redirect_uri'],
      ['a redirect_uri differing only by a trailing slash', { redirect_uri: `${REDIRECT_URI}/` }, 'redirect_uri'],
      ['no redirect_uri', { redirect_uri: undefined }, 'redirect_uri'],
    ])('%s: 400 HTML page naming the problem, no redirect', async (_name, extra, named) => {
      // in English the page names the parameter; a Danish page names it in words (CONTRACT §21: no client_id or redirect_uri on a Danish owner page)
      const res = await app
        .partner()
        .get(`/oauth/authorize?${authorizeQuery(s, challenge, extra as Record<string, string | undefined>)}`)
        .set('Accept-Language', 'en');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain(named);
      expect(res.headers['x-frame-options']).toBe('DENY');
    });

    it('an app registered without an approved revision is unauthorized_client, back at the redirect_uri', async () => {
      const created = await consolePost(app, '/apps', { name: 'Unapproved' });
      await consolePost(app, `/apps/${created.body.id}/oauth`, { redirect_uris: [REDIRECT_URI] });
      const res = await app.partner().get(`/oauth/authorize?${authorizeQuery(s, challenge, { client_id: created.body.id })}`);
      expect(res.status).toBe(303);
      const loc = new URL(res.headers.location);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT_URI);
      expect([loc.searchParams.get('error'), loc.searchParams.get('state')]).toEqual(['unauthorized_client', 'st-123']);
    });

    it.each([
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
      ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
      ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
      ['a code_challenge of 42 characters', { code_challenge: 'a'.repeat(42) }, 'invalid_request'],
      ['an unknown scope', { scope: 'journal:prepare ledger:delete' }, 'invalid_scope'],
      ['no scope', { scope: undefined }, 'invalid_scope'],
    ])('%s: 303 to the redirect_uri with error and state', async (_name, extra, error) => {
      const res = await app.partner().get(`/oauth/authorize?${authorizeQuery(s, challenge, extra as Record<string, string | undefined>)}`);
      expect(res.status).toBe(303);
      const loc = new URL(res.headers.location);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT_URI);
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('state')).toBe('st-123');
      expect(loc.searchParams.get('code')).toBeNull();
      expect(loc.searchParams.get('iss')).toBe(ISSUER); // RFC 9207: error responses too
    });

    it('a valid request shows the sign-in form with the pinned labels, security headers and a session cookie', async () => {
      const res = await app
        .partner()
        .get(`/oauth/authorize?${authorizeQuery(s, challenge)}`)
        .set('Accept-Language', 'en');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // the sign-in form may be answered by a 303 to the app (access_denied): its origin is allowed too
      expect(res.headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:8765;");
      expect(res.headers['cache-control']).toBe('no-store');
      for (const label of ['Email', 'Password', 'Authenticator code']) expect(res.text).toMatch(new RegExp(`<label for="[a-z]+">${label}</label>`));
      expect(res.text).toContain('<button type="submit">Sign in</button>');
      expect(res.text).toContain('Bogføringsappen');
      const cookies = res.headers['set-cookie'] as unknown as string[];
      const session = cookies.find((c) => c.startsWith('consent_session='));
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/SameSite=Lax/);
      expect(session).not.toMatch(/Secure/);
      expect(res.text).toMatch(/name="_csrf" value="[^"]{20,}"/);
    });
  });

  describe('the whole flow with oauth4webapi as the client', () => {
    it('consent → code → token; prepare works on the chosen accounts and is 422 on the others', async () => {
      const s = await setup();
      const chosen = [s.organization.accounts[0].id, s.organization.accounts[1].id];
      const { token } = await consentAndToken(s, { accountIds: chosen, durationDays: '30' });
      expect(token.access_token).toMatch(/^hat_[0-9A-Za-z]{46}$/);
      expect(token.token_type).toBe('bearer');
      expect(token.expires_in).toBe(30 * 86_400);
      expect(token.scope).toBe(ALL_SCOPES);
      expect(token.organization_id).toBe(s.organization.id);
      expect(token.grant_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
      expect((await prepare(token.access_token, chosen)).status).toBe(200);
      const other = await prepare(token.access_token, [s.organization.accounts[2].id]);
      expect([other.status, other.body.code]).toEqual([422, 'reference_not_allowed']);
    });

    it('answers the token with exactly the members of §11, Cache-Control: no-store, client_secret_post too', async () => {
      const s = await setup();
      const { code, verifier } = await aCode(s);
      const res = await tokenForm({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: s.client.client_id,
        client_secret: s.client.client_secret,
      });
      secrets.add(res.body.access_token);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'grant_id', 'organization_id', 'scope', 'token_type']);
      expect(res.body.token_type).toBe('Bearer');
      expect(res.body.expires_in).toBe(7_776_000);
    });

    it('a scope subset is granted as requested; the token lacks the others (403 insufficient_scope)', async () => {
      const s = await setup();
      const { verifier, challenge } = pkcePair();
      const { location } = await consentOverHttp(app, clock, s, { challenge, extra: { scope: 'journal:prepare' } });
      const params = oauth.validateAuthResponse(as, clientOf(s), new URL(location), 'st-123');
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        clientOf(s),
        oauth.ClientSecretPost(s.client.client_secret),
        params,
        REDIRECT_URI,
        verifier,
        opts,
      );
      const token = await oauth.processAuthorizationCodeResponse(as, clientOf(s), response);
      secrets.add(token.access_token);
      expect(token.scope).toBe('journal:prepare');
      const product = await app
        .partner()
        .post(`${PRODUCTION}/products`)
        .set('Authorization', `Bearer ${token.access_token}`)
        .set('Idempotency-Key', 'p-1')
        .send({ code: 'P1', name: 'Rugbrød' });
      expect([product.status, product.body.code]).toEqual([403, 'insufficient_scope']);
    });

    it('the mandate box gives final posting; without it POST /journal is 403 mandate_required', async () => {
      const s = await setup();
      const chosen = [s.organization.accounts[0].id];
      const without = await consentAndToken(s, { accountIds: chosen });
      const post = (token: string, key: string) =>
        app.partner().post(`${PRODUCTION}/journal`).set('Authorization', `Bearer ${token}`).set('Idempotency-Key', key).send(aJournal(chosen));
      const refused = await post(without.token.access_token, 'j-1');
      expect([refused.status, refused.body.code]).toEqual([403, 'mandate_required']);
      const withMandate = await consentAndToken(s, { accountIds: chosen, mandate: true });
      const posted = await post(withMandate.token.access_token, 'j-2');
      expect(posted.status).toBe(201);
      expect(posted.body.posted).toBe(true);
    });

    it('a new consent supersedes the previous grant (403 grant_revoked) and a key used under it is idempotency_grant_changed', async () => {
      const s = await setup();
      const chosen = [s.organization.accounts[0].id];
      const first = await consentAndToken(s, { accountIds: chosen, mandate: true });
      const post = (token: string) =>
        app.partner().post(`${PRODUCTION}/journal`).set('Authorization', `Bearer ${token}`).set('Idempotency-Key', 'same-key').send(aJournal(chosen));
      expect((await post(first.token.access_token)).status).toBe(201);
      const second = await consentAndToken(s, { accountIds: chosen, mandate: true });
      const old = await prepare(first.token.access_token, chosen);
      expect([old.status, old.body.code]).toEqual([403, 'grant_revoked']);
      const replay = await post(second.token.access_token);
      expect([replay.status, replay.body.code]).toEqual([409, 'idempotency_grant_changed']);
    });
  });

  describe('/oauth/token errors (RFC 6749 §5.2)', () => {
    let s: ConsentSetup;
    beforeAll(async () => {
      s = await setup();
    });
    const exchange = (code: string, verifier: string, basic = `${s.client.client_id}:${s.client.client_secret}`, redirect = REDIRECT_URI) =>
      tokenForm({ grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier }, basic);
    const expectError = (res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }, status: number, error: string) => {
      expect([res.status, res.body.error]).toEqual([status, error]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body).every((k) => k === 'error' || k === 'error_description')).toBe(true);
    };

    it('invalid_client (401, WWW-Authenticate: Basic) for a wrong secret, an unknown client, or no authentication', async () => {
      const { code, verifier } = await aCode(s);
      for (const res of [
        await exchange(code, verifier, `${s.client.client_id}:hcs_${'x'.repeat(40)}`),
        await exchange(code, verifier, `00000000-0000-4000-8000-000000000000:${s.client.client_secret}`),
        await tokenForm({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
        await tokenForm({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          client_id: s.client.client_id,
          client_secret: 'wrong',
        }),
      ]) {
        expectError(res as never, 401, 'invalid_client');
        expect(res.headers['www-authenticate']).toMatch(/^Basic /);
      }
      // the code was not used up by those attempts
      expect((await exchange(code, verifier)).status).toBe(200);
    });

    it("invalid_grant for an unknown code, a wrong code_verifier, a different redirect_uri, another client's code", async () => {
      const { code, verifier } = await aCode(s);
      expectError((await exchange('no-such-code', verifier)) as never, 400, 'invalid_grant');
      expectError((await exchange(code, pkcePair().verifier)) as never, 400, 'invalid_grant');
      expectError((await exchange(code, verifier, undefined, 'http://127.0.0.1:8765/other')) as never, 400, 'invalid_grant');
      const other = await setup();
      expectError((await exchange(code, verifier, `${other.client.client_id}:${other.client.client_secret}`)) as never, 400, 'invalid_grant');
      const ok = await exchange(code, verifier);
      expect(ok.status).toBe(200);
      secrets.add(ok.body.access_token);
    });

    it('invalid_grant for a code 60 s after its issue (59 s is still fine)', async () => {
      const a = await aCode(s);
      clock.advance(59_000);
      const fine = await exchange(a.code, a.verifier);
      expect(fine.status).toBe(200);
      secrets.add(fine.body.access_token);
      const b = await aCode(s);
      clock.advance(60_000);
      expectError((await exchange(b.code, b.verifier)) as never, 400, 'invalid_grant');
    });

    it('a code presented a second time is refused and the token issued for it stops working (401 invalid_token)', async () => {
      const { code, verifier } = await aCode(s);
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      secrets.add(first.body.access_token);
      expect((await prepare(first.body.access_token, [s.organization.accounts[0].id])).status).toBe(200);
      expectError((await exchange(code, verifier)) as never, 400, 'invalid_grant');
      const after = await prepare(first.body.access_token, [s.organization.accounts[0].id]);
      expect([after.status, after.body.code]).toEqual([401, 'invalid_token']);
    });

    it('unsupported_grant_type and invalid_request', async () => {
      const basic = `${s.client.client_id}:${s.client.client_secret}`;
      expectError((await tokenForm({ grant_type: 'client_credentials' }, basic)) as never, 400, 'unsupported_grant_type');
      expectError((await tokenForm({ grant_type: 'password', username: 'a', password: 'b' }, basic)) as never, 400, 'unsupported_grant_type');
      expectError((await tokenForm({ code: 'x' }, basic)) as never, 400, 'invalid_request');
      expectError(
        (await tokenForm({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) }, basic)) as never,
        400,
        'invalid_request',
      );
      const json = await app
        .partner()
        .post('/oauth/token')
        .set('Authorization', `Basic ${Buffer.from(basic).toString('base64')}`)
        .send({ grant_type: 'authorization_code' });
      expectError(json as never, 400, 'invalid_request');
      const huge = await app
        .partner()
        .post('/oauth/token')
        .set('Authorization', `Basic ${Buffer.from(basic).toString('base64')}`)
        .type('form')
        .send(`grant_type=authorization_code&code=${'x'.repeat(70_000)}`);
      expectError(huge as never, 400, 'invalid_request');
    });

    it('oauth4webapi sees invalid_grant as a ResponseBodyError', async () => {
      const { verifier, challenge } = pkcePair();
      const { location } = await consentOverHttp(app, clock, s, { challenge });
      const params = oauth.validateAuthResponse(as, clientOf(s), new URL(location), 'st-123');
      secrets.add(params.get('code') as string);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        clientOf(s),
        oauth.ClientSecretBasic(s.client.client_secret),
        params,
        REDIRECT_URI,
        `${verifier}x`,
        opts,
      );
      await expect(oauth.processAuthorizationCodeResponse(as, clientOf(s), response)).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
    });
  });

  describe('/oauth/revoke (RFC 7009)', () => {
    it("revokes the app's own token (then 401 invalid_token), leaves another app's token alone, 200 for an unknown one", async () => {
      const a = await setup();
      const b = await setup();
      const tokenA = (await consentAndToken(a)).token.access_token;
      const tokenB = (await consentAndToken(b)).token.access_token;
      const revoke = async (s: ConsentSetup, token: string) => {
        const res = await oauth.revocationRequest(as, clientOf(s), oauth.ClientSecretBasic(s.client.client_secret), token, opts);
        expect(res.status).toBe(200);
        await oauth.processRevocationResponse(res);
      };
      await revoke(a, tokenB);
      expect((await prepare(tokenB, [b.organization.accounts[0].id])).status).toBe(200);
      await revoke(a, 'hat_unknown');
      await revoke(a, tokenA);
      const after = await prepare(tokenA, [a.organization.accounts[0].id]);
      expect([after.status, after.body.code]).toEqual([401, 'invalid_token']);
      const wrongSecret = await app.partner().post('/oauth/revoke').type('form').send(`token=${tokenB}&client_id=${a.client.client_id}&client_secret=nope`);
      expect([wrongSecret.status, wrongSecret.body.error]).toEqual([401, 'invalid_client']);
    });
  });

  describe('the owner pages over plain HTTP', () => {
    it('Deny sends access_denied and the state back, and makes no grant', async () => {
      const s = await setup();
      const first = await consentAndToken(s);
      const { challenge } = pkcePair();
      const { location } = await consentOverHttp(app, clock, s, { challenge, decision: 'deny' });
      const loc = new URL(location);
      expect([loc.searchParams.get('error'), loc.searchParams.get('state'), loc.searchParams.get('code')]).toEqual(['access_denied', 'st-123', null]);
      // no new grant superseded the first one
      expect((await prepare(first.token.access_token, [s.organization.accounts[0].id])).status).toBe(200);
    });

    it('the consent form lists the accounts by number as a number (CONTRACT §7, §18: 1000, 7000, 12000), in the order the console reads them', async () => {
      const s = await setup({ accounts: 1 });
      for (const number of ['12000', '7000', '900', 'b', 'B', 'a', 'A-10', 'A-9', '1000_1', '1000A']) {
        expect((await consolePost(app, `/organizations/${s.organization.id}/accounts`, { number, name: `Konto ${number}` })).status).toBe(201);
      }
      const driver = new PageDriver(app);
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const page = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([page.postStatus, page.status]).toEqual([303, 200]);
      const labels = [...page.text.matchAll(/name="account_ids" value="[^"]+"><label for="account-\d+">([^<]*)<\/label>/g)].map((m) => m[1]);
      // one order everywhere accounts are listed: the console's read (and the partner's) is the database's
      expect(labels).toEqual([
        '900 Konto 900',
        '1000 Konto 1',
        '1000A Konto 1000A',
        '1000_1 Konto 1000_1',
        '7000 Konto 7000',
        '12000 Konto 12000',
        'A-9 Konto A-9',
        'A-10 Konto A-10',
        'B Konto B',
        'a Konto a',
        'b Konto b',
      ]);
      const read = await app.console().get(`/console/v1/organizations/${s.organization.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect(read.body.accounts.map((a: { number: string; name: string }) => `${a.number} ${a.name}`)).toEqual(labels);
    });

    it('the consent form lists active accounts "<number> <name>" unchecked, scopes in words, Duration 90 first, mandate, buttons', async () => {
      const s = await setup({ accounts: 3 });
      await consolePost(app, `/accounts/${s.organization.accounts[2].id}/deactivate`);
      const driver = new PageDriver(app);
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const page = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([page.postStatus, page.status]).toEqual([303, 200]);
      // the same form again on reload
      const again = await driver.get('/oauth/authorize/continue');
      expect(again.status).toBe(200);
      expect(again.text.replace(/value="[^"]*" name="_csrf"|name="_csrf" value="[^"]*"/g, '')).toBe(page.text.replace(/name="_csrf" value="[^"]*"/g, ''));
      expect(page.headers['x-frame-options']).toBe('DENY');
      const checkboxes = [
        ...page.text.matchAll(/<input type="checkbox" id="(account-\d+)" name="account_ids" value="([^"]+)"( checked)?><label for="\1">([^<]*)<\/label>/g),
      ];
      expect(checkboxes.map((m) => [m[2], m[3] ?? '', m[4]])).toEqual([
        [s.organization.accounts[0].id, '', '1000 Konto 1'],
        [s.organization.accounts[1].id, '', '1010 Konto 2'],
      ]);
      expect(page.text).toMatch(
        /<label for="duration">Duration<\/label>\s*<select id="duration" name="duration_days"[^>]*>\s*<option value="90" selected>90 days — until [^<]+<\/option>\s*<option value="60">60 days — until [^<]+<\/option>\s*<option value="30">30 days — until [^<]+<\/option>/,
      );
      expect(page.text).toContain('<label for="mandate">Allow final posting (mandate)</label>');
      expect(page.text).toContain('>Allow access</button>');
      expect(page.text).toContain('>Deny</button>');
      // CONTRACT §18: scopes in words only, no scope codes on owner pages
      for (const scope of SCOPES) expect(page.text).not.toContain(scope);
      for (const title of ['Check journal entries', 'Post journal entries', 'Create products', 'Read its receipts and events', 'Read its journal entries'])
        expect(page.text).toContain(`<strong>${title}</strong>`);
      // operations:read also reads the events feed (CONTRACT §14): the owner is told so, in words
      expect(page.text).toContain('look up the receipts of what it did and read the feed of their events');
      // journal:read (CONTRACT §17) reads the entries and their attachments: the owner is told both
      expect(page.text).toContain('read the journal entries it posted and their attachments');
      expect(page.text).toContain('Bager Hansen ApS');

      const none = await driver.post('/oauth/authorize/decision', { decision: 'allow', duration_days: '90' });
      expect(none.status).toBe(422);
      expect(none.text).toContain('Choose at least one account');
      expect(none.headers.location).toBeUndefined();
      const ok = await driver.post('/oauth/authorize/decision', { decision: 'allow', duration_days: '90', account_ids: s.organization.accounts[0].id });
      expect(ok.status).toBe(303);
      expect(new URL(ok.headers.location).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('no mandate checkbox when journal:post is not requested', async () => {
      const s = await setup();
      const driver = new PageDriver(app);
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { scope: 'journal:prepare operations:read' })}`);
      const page = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([page.postStatus, page.status]).toEqual([303, 200]);
      expect(page.text).toContain('Allow access');
      expect(page.text).not.toContain('mandate');
    });

    it('a POST without a valid CSRF token is 403 and changes nothing', async () => {
      const s = await setup();
      const driver = new PageDriver(app);
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const code = nextCode(clock, s);
      const noToken = await driver.post('/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code }, { csrf: null });
      expect(noToken.status).toBe(403);
      const forged = await driver.post(
        '/oauth/authorize/sign-in',
        { email: s.owner.email, password: PASSWORD, code },
        { csrf: `${driver.lastCsrf.slice(0, -2)}xx` },
      );
      expect(forged.status).toBe(403);
      // the code was not used up: the real form still signs in with it
      expect((await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code })).postStatus).toBe(303);
      const csrf = driver.lastCsrf;
      const noCsrfDecision = await driver.post(
        '/oauth/authorize/decision',
        { decision: 'allow', duration_days: '90', account_ids: s.organization.accounts[0].id },
        { csrf: null },
      );
      expect(noCsrfDecision.status).toBe(403);
      expect(noCsrfDecision.headers.location).toBeUndefined();
      // a token of another session is refused too
      const other = new PageDriver(app);
      await other.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const crossed = await other.post('/oauth/authorize/decision', { decision: 'allow', account_ids: s.organization.accounts[0].id }, { csrf });
      expect(crossed.status).toBe(403);
      const ok = await driver.post(
        '/oauth/authorize/decision',
        { decision: 'allow', duration_days: '90', account_ids: s.organization.accounts[0].id },
        { csrf },
      );
      expect(ok.status).toBe(303);
    });

    it('a failed sign-in leads back to its form (CONTRACT §21) and does not say which factor failed', async () => {
      const s = await setup();
      const pages: string[] = [];
      for (const [password, good] of [
        ['wrong password 123', true],
        [PASSWORD, false],
      ] as const) {
        const driver = new PageDriver(app);
        await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
        const code = nextCode(clock, s);
        const res = await signInTry(driver, '/oauth/authorize/sign-in', {
          email: s.owner.email,
          password,
          code: good ? code : code === '000000' ? '111111' : '000000',
        });
        expect(res.answer).toBe('refused');
        expect(res.text).toContain(SIGN_IN_FAILED);
        // the language switch leads back to each request's own authorization URL (its own code_challenge)
        pages.push(res.text.replace(/value="[^"]*"/g, '').replace(/href="\/oauth\/authorize\?[^"]*"/g, ''));
      }
      expect(pages[0]).toBe(pages[1]);
      const unknown = new PageDriver(app);
      await unknown.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      const res = await signInTry(unknown, '/oauth/authorize/sign-in', { email: `nobody-${Date.now()}@example.dk`, password: PASSWORD, code: '123456' });
      expect(res.answer).toBe('refused');
      expect(res.text).toContain(SIGN_IN_FAILED);
    });

    it('5 failed sign-ins for one email in 15 minutes lock it for 15 minutes, right code or not', async () => {
      const s = await setup();
      const driver = new PageDriver(app);
      await driver.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
      for (let i = 0; i < 5; i++) {
        const res = await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: `wrong password ${i}`, code: nextCode(clock, s) });
        expect(res.answer).toBe('refused');
      }
      const locked = await signInTry(driver, '/oauth/authorize/sign-in', { email: s.owner.email.toUpperCase(), password: PASSWORD, code: nextCode(clock, s) });
      expect(locked.answer).toBe('locked');
      clock.advance(15 * 60_000);
      const again = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([again.postStatus, again.status]).toEqual([303, 200]);
      expect(again.text).toContain('Allow access');
    });

    it('an owner of several organizations chooses one (Organization select); organization_id skips the choice', async () => {
      const s = await setup();
      const second = await aProductionOrganization(app, { accounts: 2, name: 'Anden ApS' });
      await consolePost(app, `/organizations/${second.id}/owners`, { email: s.owner.email });
      const driver = new PageDriver(app);
      const { verifier, challenge } = pkcePair();
      await driver.get(`/oauth/authorize?${authorizeQuery(s, challenge)}`);
      const choose = await postAndFollow(driver, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([choose.postStatus, choose.status]).toEqual([303, 200]);
      expect(choose.text).toContain('<label for="organization">Organization</label>');
      expect(choose.text).toContain('Anden ApS');
      const consent = await postAndFollow(driver, '/oauth/authorize/organization', { organization_id: second.id });
      expect([consent.postStatus, consent.status]).toEqual([303, 200]);
      expect(consent.text).toContain('Allow access');
      expect(consent.text).toContain('Anden ApS');
      expect(consent.text).not.toContain('Bager Hansen ApS');
      const decision = await driver.post('/oauth/authorize/decision', { decision: 'allow', duration_days: '60', account_ids: second.accounts[1].id });
      const code = new URL(decision.headers.location).searchParams.get('code') as string;
      const token = await tokenForm(
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
        `${s.client.client_id}:${s.client.client_secret}`,
      );
      expect(token.body.organization_id).toBe(second.id);
      secrets.add(token.body.access_token);
      expect((await prepare(token.body.access_token, [second.accounts[1].id])).status).toBe(200);

      const direct = await consentOverHttp(app, clock, s, {
        challenge: pkcePair().challenge,
        extra: { organization_id: second.id },
        accountIds: [second.accounts[0].id],
      });
      expect(new URL(direct.location).searchParams.get('code')).toBeTruthy();
      const foreign = await aProductionOrganization(app, { accounts: 1 });
      const denied = new PageDriver(app);
      await denied.get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { organization_id: foreign.id })}`);
      const res = await postAndFollow(denied, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([res.postStatus, res.status]).toEqual([303, 303]);
      expect(new URL(res.headers.location).searchParams.get('error')).toBe('access_denied');
    });

    it('Connected apps: sign in, see the app with its grant, Revoke → its tokens get 403 grant_revoked', async () => {
      const s = await setup();
      const { token } = await consentAndToken(s, { accountIds: [s.organization.accounts[1].id] });
      const driver = new PageDriver(app);
      const signInPage = await driver.get('/account/connections');
      expect(signInPage.status).toBe(200);
      expect(signInPage.text).toContain('<label for="code">Authenticator code</label>');
      expect(signInPage.headers['x-frame-options']).toBe('DENY');
      const noCsrf = await driver.post('/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: '000000' }, { csrf: null });
      expect(noCsrf.status).toBe(403);
      const signedIn = await postAndFollow(driver, '/account/connections/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
      expect([signedIn.postStatus, signedIn.status]).toEqual([303, 200]);
      const list = await driver.get('/account/connections');
      expect(list.status).toBe(200);
      expect(signedIn.text.replace(/name="_csrf" value="[^"]*"/g, '')).toBe(list.text.replace(/name="_csrf" value="[^"]*"/g, ''));
      expect(list.text).toContain('Bogføringsappen');
      expect(list.text).toContain('1010 Konto 2');
      expect(list.text).toContain('Bager Hansen ApS');
      const grantId = token.grant_id as string;
      expect(list.text).toContain(`name="grant_id" value="${grantId}"`);
      // CONTRACT §18: Revoke asks first; the confirmation page's Confirm posts it
      const confirm = await driver.get(`/account/connections/revoke?grant_id=${grantId}`);
      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain('>Confirm</button>');
      expect(confirm.text).toContain('>Cancel</button>');
      expect((await prepare(token.access_token, [s.organization.accounts[1].id])).status).toBe(200);
      const forged = await driver.post('/account/connections/revoke', { grant_id: grantId }, { csrf: 'nope' });
      expect(forged.status).toBe(403);
      expect((await prepare(token.access_token, [s.organization.accounts[1].id])).status).toBe(200);
      const revoked = await driver.post('/account/connections/revoke', { grant_id: grantId });
      expect(revoked.status).toBe(303);
      const after = await prepare(token.access_token, [s.organization.accounts[1].id]);
      expect([after.status, after.body.code]).toEqual([403, 'grant_revoked']);
      const empty = await driver.get('/account/connections');
      expect(empty.text).not.toContain(`value="${grantId}"`);
      // the status of the action, shown once on the page the 303 led to
      expect(empty.text).toContain('<p class="status" role="status" id="status">Access of Bogføringsappen to Bager Hansen ApS was revoked.</p>');
      expect((await driver.get('/account/connections')).text).not.toContain('was revoked');
      // a replayed revocation changes nothing and says so
      const replay = await postAndFollow(driver, '/account/connections/revoke', { grant_id: grantId });
      expect([replay.postStatus, replay.status]).toEqual([303, 200]);
      expect(replay.text).toContain('That access had already ended.');
    });
  });

  it('no page holds a password, TOTP secret, client secret, code or token; a redirect holds no credential but its own code', () => {
    expect(SEEN.bodies.length).toBeGreaterThan(50);
    const leakingPages = SEEN.bodies.filter((body) => [...secrets].some((secret) => body.includes(secret)));
    expect(leakingPages).toEqual([]);
    const withCode = SEEN.locations.filter((l) => l.includes('code='));
    expect(withCode.length).toBeGreaterThan(10);
    for (const location of SEEN.locations) {
      const own = new URL(location, 'http://x').searchParams.get('code');
      const others = [...secrets].filter((secret) => secret !== own && location.includes(secret));
      expect(others).toEqual([]);
    }
  });

  it('no password, TOTP secret, client secret, code or token appears in any log line', () => {
    expect(logLines.length).toBeGreaterThan(50);
    expect(secrets.size).toBeGreaterThan(20);
    const leaks = logLines.filter((line) => [...secrets].some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
    expect(logLines.some((l) => l.includes('hat_') || l.includes('hcs_'))).toBe(false);
  });
});

describe('consent cookies when PUBLIC_ORIGIN is https (CONTRACT §11)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ publicOrigin: 'https://konto.example.dk' });
  });
  afterAll(() => app.close());

  it('are Secure with the __Host- prefix, HttpOnly and SameSite=Lax', async () => {
    const s = await aConsentSetup(app);
    const res = await app.partner().get(`/oauth/authorize?${authorizeQuery(s, pkcePair().challenge)}`);
    expect(res.status).toBe(200);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    expect(cookies.length).toBe(2);
    for (const c of cookies) {
      expect(c).toMatch(/^__Host-consent_(session|csrf)=/);
      expect(c).toMatch(/; Secure/);
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).toMatch(/; Path=\//);
    }
    const meta = await app.partner().get('/.well-known/oauth-authorization-server');
    expect(meta.body.issuer).toBe('https://konto.example.dk');
    expect(meta.body.token_endpoint).toBe('https://konto.example.dk/oauth/token');
  });
});

/** Sessions, CSRF secrets, codes and lockouts live in the database: any instance serves any step. */
(onPostgres() ? describe : describeNothing)('two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 10));
  beforeAll(async () => {
    a = await createTestApp({}, { clock });
    b = await createTestApp({}, { clock });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('authorize on one, sign in and decide on the other, exchange on the first; the lockout holds on both', async () => {
    const s = await aConsentSetup(a);
    const { verifier, challenge } = pkcePair();
    const onA = new PageDriver(a);
    const onB = new PageDriver(b);
    expect((await onA.get(`/oauth/authorize?${authorizeQuery(s, challenge)}`)).status).toBe(200);
    for (const [k, v] of onA.cookies) onB.cookies.set(k, v);
    onB.lastCsrf = onA.lastCsrf;
    const consent = await postAndFollow(onB, '/oauth/authorize/sign-in', { email: s.owner.email, password: PASSWORD, code: nextCode(clock, s) });
    expect([consent.postStatus, consent.status]).toEqual([303, 200]);
    for (const [k, v] of onB.cookies) onA.cookies.set(k, v);
    onA.lastCsrf = onB.lastCsrf;
    const decision = await onA.post('/oauth/authorize/decision', { decision: 'allow', duration_days: '90', account_ids: s.organization.accounts[0].id });
    expect(decision.status).toBe(303);
    const code = new URL(decision.headers.location).searchParams.get('code') as string;
    const token = await b
      .partner()
      .post('/oauth/token')
      .type('form')
      .send(
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          client_id: s.client.client_id,
          client_secret: s.client.client_secret,
        }).toString(),
      );
    expect(token.status).toBe(200);

    const x = await aConsentSetup(a);
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? a : b;
      const d = new PageDriver(app);
      await d.get(`/oauth/authorize?${authorizeQuery(x, challenge)}`);
      expect((await signInTry(d, '/oauth/authorize/sign-in', { email: x.owner.email, password: 'wrong password!', code: '000000' })).answer).toBe('refused');
    }
    for (const app of [a, b]) {
      const d = new PageDriver(app);
      await d.get(`/oauth/authorize?${authorizeQuery(x, challenge)}`);
      expect((await signInTry(d, '/oauth/authorize/sign-in', { email: x.owner.email, password: PASSWORD, code: nextCode(clock, x) })).answer).toBe('locked');
    }
  });
});

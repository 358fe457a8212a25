import { Writable } from 'node:stream';
import { generateAccessToken } from '../../src/modules/auth/access/domain/access-token';
import { AccessRepository } from '../../src/modules/auth/access/domain/access.repository';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, aProductionOrganization, aToken, codeOf, consolePost, ManualClock, type ProductionAccess } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const STEP = 30_000;
const REALM = 'Bearer realm="partner-api"';
const REALM_INVALID = 'Bearer realm="partner-api", error="invalid_token"';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

type Res = { status: number; headers: Record<string, string>; body: Record<string, unknown>; text: string };

/** A stop is a problem body, never a 200 with an empty or partial result (seed 5.9). */
function expectStop(res: Res, status: number, code: string) {
  expect([res.status, res.body.code]).toEqual([status, code]);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: `urn:partner-api:error:${code}`, status, code });
  expect(res.body.valid).toBeUndefined();
  expect(res.body.posted).toBeUndefined();
  expect(res.body.checked).toBeUndefined();
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
}

/** The token with the character at `index` replaced by another base62 character. */
function flip(token: string, index: number): string {
  const c = token[index];
  const other = BASE62[(BASE62.indexOf(c) + 1) % 62];
  return token.slice(0, index) + other + token.slice(index + 1);
}

describe('partner access: tokens, grants, revisions, scopes (CONTRACT §3 steps 0–3, §8)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  const logLines: string[] = [];
  let sandbox: SandboxProject;

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestApp({ logLevel: 'info' }, { clock, logStream });
    sandbox = await aSandboxProject(app);
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  function prepare(base: string, token: string | null, body: unknown = null, accounts: string[] = []) {
    const req = app.partner().post(`${base}/journal/prepare`);
    if (token !== null) req.set('Authorization', `Bearer ${token}`);
    return req.send((body ?? aJournal(accounts)) as object);
  }
  const sandboxAccounts = () => sandbox.accounts.map((a) => a.id);
  const access = (options: Parameters<typeof aProductionAccess>[1] = {}) => aProductionAccess(app, { nowMs: clock.nowMs(), ...options });
  const prepareWith = (p: ProductionAccess, token = p.token, body: unknown = null) => prepare(PRODUCTION, token, body, p.grantedAccountIds);

  /** A further grant for the same (organization, app), signed with the owner's code of the next step. */
  async function regrant(p: ProductionAccess, stepsAhead = 1, overrides: Record<string, unknown> = {}) {
    const res = await consolePost(app, `/organizations/${p.organization.id}/grants`, {
      app_id: p.app.id,
      owner_user_id: p.owner.user_id,
      totp_code: codeOf(p.owner, clock.nowMs() + stepsAhead * STEP),
      account_ids: p.grantedAccountIds,
      scopes: ['journal:prepare'],
      ...overrides,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; expires_at: string };
  }

  async function approveNewRevision(appId: string): Promise<string> {
    const rev = await consolePost(app, `/apps/${appId}/revisions`);
    expect((await consolePost(app, `/apps/${appId}/revisions/${rev.body.id}/approve`)).status).toBe(200);
    return rev.body.id;
  }

  describe('401: the token', () => {
    it.each([SANDBOX, PRODUCTION])(
      'answers a call on %s without a token with 401 missing_token and WWW-Authenticate: Bearer realm="partner-api"',
      async (base) => {
        const res = await prepare(base, null, null, sandboxAccounts());
        expectStop(res, 401, 'missing_token');
        expect(res.headers['www-authenticate']).toBe(REALM);
      },
    );

    it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer '], ['Token hsk_abc'], ['']])('treats Authorization %j as no token', async (header) => {
      const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', header).send(aJournal(sandboxAccounts()));
      expectStop(res, 401, 'missing_token');
    });

    it('refuses an hat_ token on the sandbox path with 401 token_environment_mismatch', async () => {
      const p = await access();
      const res = await prepare(SANDBOX, p.token, null, sandboxAccounts());
      expectStop(res, 401, 'token_environment_mismatch');
      expect(res.headers['www-authenticate']).toBe(REALM_INVALID);
    });

    it('refuses an hsk_ token on the production path with 401 token_environment_mismatch', async () => {
      const res = await prepare(PRODUCTION, sandbox.token, null, sandboxAccounts());
      expectStop(res, 401, 'token_environment_mismatch');
      expect(res.headers['www-authenticate']).toBe(REALM_INVALID);
    });

    it('judges the environment by the prefix before the checksum', async () => {
      expectStop(await prepare(SANDBOX, flip(generateAccessToken('production'), 10), null, sandboxAccounts()), 401, 'token_environment_mismatch');
      expectStop(await prepare(PRODUCTION, 'hsk_short', null, sandboxAccounts()), 401, 'token_environment_mismatch');
    });

    it.each([
      ['a bare prefix', 'hsk_'],
      ['too short', 'hsk_abc123'],
      ['one character too many', () => `${sandbox.token}0`],
      ['one character too few', () => sandbox.token.slice(0, -1)],
      ['an upper-case prefix', () => `HSK_${sandbox.token.slice(4)}`],
      ['a non-base62 character', () => `${sandbox.token.slice(0, 20)}-${sandbox.token.slice(21)}`],
      ['an unknown prefix', () => `hpk_${sandbox.token.slice(4)}`],
    ])('refuses a malformed token (%s) with 401 invalid_token', async (_, token) => {
      const raw = typeof token === 'function' ? token() : token;
      const res = await prepare(SANDBOX, raw, null, sandboxAccounts());
      expectStop(res, 401, 'invalid_token');
      expect(res.headers['www-authenticate']).toBe(REALM_INVALID);
    });

    it.each([
      ['the random part', 4],
      ['the middle of the random part', 25],
      ['the last random character', 43],
      ['the checksum', 44],
      ['the last checksum character', 49],
    ])('refuses a token with one character of %s changed, without a database look-up', async (_, index) => {
      const findToken = jest.spyOn(app.apps.partner.get(AccessRepository), 'findToken');
      for (const [base, token] of [
        [SANDBOX, sandbox.token],
        [PRODUCTION, generateAccessToken('production')],
      ]) {
        const res = await prepare(base, flip(token, index), null, sandboxAccounts());
        expectStop(res, 401, 'invalid_token');
      }
      expect(findToken).not.toHaveBeenCalled();
    });

    it('refuses an unknown, well-formed token with 401 invalid_token after looking it up', async () => {
      const findToken = jest.spyOn(app.apps.partner.get(AccessRepository), 'findToken');
      expectStop(await prepare(SANDBOX, generateAccessToken('sandbox'), null, sandboxAccounts()), 401, 'invalid_token');
      expectStop(await prepare(PRODUCTION, generateAccessToken('production'), null, sandboxAccounts()), 401, 'invalid_token');
      expect(findToken).toHaveBeenCalledTimes(2);
    });

    it('refuses the token of a superseded sandbox generation with 401 invalid_token; the new one works', async () => {
      const project = await aSandboxProject(app);
      const ids = project.accounts.map((a) => a.id);
      expect((await prepare(SANDBOX, project.token, null, ids)).status).toBe(200);
      const next = await consolePost(app, `/sandbox/projects/${project.project_id}/generations`);
      expect(next.status).toBe(201);
      const old = await prepare(SANDBOX, project.token, null, ids);
      expectStop(old, 401, 'invalid_token');
      expect(old.headers['www-authenticate']).toBe(REALM_INVALID);
      expect((await prepare(SANDBOX, next.body.token, null, ids)).status).toBe(200);
      // and a third generation supersedes the second
      const third = await consolePost(app, `/sandbox/projects/${project.project_id}/generations`);
      expectStop(await prepare(SANDBOX, next.body.token, null, ids), 401, 'invalid_token');
      expect((await prepare(SANDBOX, third.body.token, null, ids)).status).toBe(200);
    });
  });

  describe('403: the grant, the app revision, the scope', () => {
    it('lets a production token with a current grant prepare a journal on its selected accounts', async () => {
      const p = await access();
      const res = await prepareWith(p);
      expect(res.status).toBe(200);
      expect(res.body.valid).toBe(true);
    });

    it('stops the next call after the grant is revoked: 403 grant_revoked, not an empty 200', async () => {
      const p = await access();
      expect((await prepareWith(p)).status).toBe(200);
      expect((await consolePost(app, `/grants/${p.grant.id}/revoke`)).status).toBe(200);
      const res = await prepareWith(p);
      expectStop(res, 403, 'grant_revoked');
      expect(res.headers['www-authenticate']).toBeUndefined();
      // a token issued now under the revoked grant is stopped the same way
      expectStop(await prepareWith(p, await aToken(app, p.grant.id)), 403, 'grant_revoked');
    });

    it('refuses the tokens of a superseded grant with 403 grant_revoked; the new grant works', async () => {
      const p = await access();
      const next = await regrant(p);
      expectStop(await prepareWith(p), 403, 'grant_revoked');
      expect((await prepareWith(p, await aToken(app, next.id))).status).toBe(200);
    });

    it('refuses the token of an expired grant with 403 grant_expired', async () => {
      const p = await access({ duration_seconds: 1 });
      expect((await prepareWith(p)).status).toBe(200);
      clock.advance(999);
      expect((await prepareWith(p)).status).toBe(200);
      clock.advance(101);
      expectStop(await prepareWith(p), 403, 'grant_expired');
    });

    it('refuses a token issued under an earlier approved revision with 403 app_revision_changed; a new token works', async () => {
      const p = await access();
      expect((await prepareWith(p)).status).toBe(200);
      await approveNewRevision(p.app.id);
      const res = await prepareWith(p);
      expectStop(res, 403, 'app_revision_changed');
      expect((await prepareWith(p, await aToken(app, p.grant.id))).status).toBe(200);
    });

    it('refuses a token without the route scope: 403 insufficient_scope naming the scope in WWW-Authenticate', async () => {
      const p = await access({ scopes: ['journal:post', 'products:create', 'operations:read'] });
      const res = await prepareWith(p);
      expectStop(res, 403, 'insufficient_scope');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="partner-api", error="insufficient_scope", scope="journal:prepare"');
    });

    it('needs journal:prepare and nothing else for POST /journal/prepare', async () => {
      const p = await access({ scopes: ['journal:prepare'] });
      expect((await prepareWith(p)).status).toBe(200);
    });
  });

  describe('the order of the checks, first failure wins', () => {
    it('routing (404) before the token', async () => {
      const p = await access();
      await consolePost(app, `/grants/${p.grant.id}/revoke`);
      for (const token of [null, p.token, 'garbage']) {
        const req = app.partner().post(`${PRODUCTION}/journal/unknown`);
        if (token) req.set('Authorization', `Bearer ${token}`);
        expectStop(await req.send({}), 404, 'not_found');
      }
      expectStop(await app.partner().get(`${PRODUCTION}/journal/prepare`).set('Authorization', `Bearer ${p.token}`), 404, 'not_found');
    });

    it('transport (malformed JSON, 400) before the token and the grant', async () => {
      const p = await access();
      await consolePost(app, `/grants/${p.grant.id}/revoke`);
      for (const token of [null, p.token]) {
        const req = app.partner().post(`${PRODUCTION}/journal/prepare`).set('Content-Type', 'application/json');
        if (token) req.set('Authorization', `Bearer ${token}`);
        expectStop(await req.send('{"posting_date": '), 400, 'invalid_input');
      }
    });

    it('the environment (401) before the grant (403)', async () => {
      const p = await access();
      await consolePost(app, `/grants/${p.grant.id}/revoke`);
      expectStop(await prepare(SANDBOX, p.token, null, sandboxAccounts()), 401, 'token_environment_mismatch');
    });

    it('revoked before expired before revision changed before scope', async () => {
      // all four wrong: revoked
      const a = await access({ duration_seconds: 1, scopes: ['products:create'] });
      await approveNewRevision(a.app.id);
      await consolePost(app, `/grants/${a.grant.id}/revoke`);
      // expired, revision changed, scope missing: expired
      const b = await access({ duration_seconds: 1, scopes: ['products:create'] });
      await approveNewRevision(b.app.id);
      // revision changed and scope missing: revision
      const c = await access({ scopes: ['products:create'] });
      await approveNewRevision(c.app.id);
      clock.advance(1_500);
      expectStop(await prepareWith(a), 403, 'grant_revoked');
      expectStop(await prepareWith(b), 403, 'grant_expired');
      expectStop(await prepareWith(c), 403, 'app_revision_changed');
    });

    it('a superseded grant is grant_revoked even when it has also expired', async () => {
      const p = await access({ duration_seconds: 1 });
      await regrant(p);
      clock.advance(1_500);
      expectStop(await prepareWith(p), 403, 'grant_revoked');
    });

    it('the grant and scope (403) before the input (400) and the references (422)', async () => {
      const revoked = await access();
      await consolePost(app, `/grants/${revoked.grant.id}/revoke`);
      expectStop(await prepareWith(revoked, revoked.token, { lines: 'nope' }), 403, 'grant_revoked');
      const noScope = await access({ scopes: ['products:create'] });
      expectStop(await prepareWith(noScope, noScope.token, { posting_date: 'today' }), 403, 'insufficient_scope');
      const foreign = await aProductionOrganization(app, { accounts: 2 });
      expectStop(await prepareWith(noScope, noScope.token, aJournal(foreign.accounts.map((x) => x.id))), 403, 'insufficient_scope');
    });
  });

  describe('the permitted accounts are the grant selected accounts', () => {
    it('refuses an account of the organization outside the grant with 422 reference_not_allowed, like a foreign or unknown one', async () => {
      const p = await access({ accounts: 3, grantedAccounts: 2 });
      const [granted, otherGranted, notGranted] = p.organization.accounts.map((a) => a.id);
      expect(p.grantedAccountIds).toEqual([granted, otherGranted]);
      const foreign = await aProductionOrganization(app, { accounts: 1 });
      const bodies = [];
      for (const refused of [notGranted, foreign.accounts[0].id, '00000000-0000-4000-8000-000000000000', sandbox.accounts[0].id]) {
        const res = await prepareWith(p, p.token, aJournal([granted, refused]));
        expectStop(res, 422, 'reference_not_allowed');
        expect((res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toEqual(['/lines/1/account_id']);
        const { request_id: _, ...rest } = res.body;
        bodies.push(rest);
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect((await prepareWith(p, p.token, aJournal([granted, otherGranted]))).status).toBe(200);
    });

    it('refuses a selected account once it is deactivated', async () => {
      const p = await access();
      const [a, b] = p.grantedAccountIds;
      expect((await prepareWith(p, p.token, aJournal([a, b]))).status).toBe(200);
      await consolePost(app, `/accounts/${b}/deactivate`);
      expectStop(await prepareWith(p, p.token, aJournal([a, b])), 422, 'reference_not_allowed');
    });

    it('takes the accounts of the grant in force: a new grant with other accounts changes them', async () => {
      const p = await access({ accounts: 3, grantedAccounts: 2 });
      const [a, b, c] = p.organization.accounts.map((x) => x.id);
      const next = await regrant(p, 1, { account_ids: [a, c] });
      const token = await aToken(app, next.id);
      expect((await prepareWith(p, token, aJournal([a, c]))).status).toBe(200);
      expectStop(await prepareWith(p, token, aJournal([a, b])), 422, 'reference_not_allowed');
    });
  });

  it('logs no token, neither on success nor on a stop', async () => {
    const before = logLines.length;
    const p = await access();
    const revokedLater = await access();
    await consolePost(app, `/grants/${revokedLater.grant.id}/revoke`);
    const calls = [
      await prepareWith(p),
      await prepareWith(revokedLater),
      await prepare(SANDBOX, p.token, null, sandboxAccounts()),
      await prepare(SANDBOX, flip(sandbox.token, 12), null, sandboxAccounts()),
      await prepare(SANDBOX, sandbox.token, null, sandboxAccounts()),
    ];
    expect(calls.map((r) => r.status)).toEqual([200, 403, 401, 401, 200]);
    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      for (const secret of [p.token, revokedLater.token, sandbox.token, flip(sandbox.token, 12), p.owner.totp_secret, revokedLater.owner.totp_secret]) {
        expect(line).not.toContain(secret);
        expect(line).not.toContain(secret.slice(4, 30));
      }
    }
  });
});

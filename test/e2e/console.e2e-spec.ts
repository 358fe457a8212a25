import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { run as runCli } from '../../src/modules/console/cli/console-cli';
import { SCOPES } from '../../src/shared/domain/scopes';
import { aJournal, PRODUCTION, SANDBOX } from '../support/fixtures';
import { aProductionOrganization, anApprovedApp, anOwner, aToken, codeOf, consolePost, ManualClock, type Owner } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STEP = 30_000;
const ALL_SCOPES = [...SCOPES];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Res = { status: number; headers: Record<string, string>; body: Record<string, unknown>; text: string };

function expectProblem(res: Res, status: number, code: string, pointers?: string[]) {
  expect([res.status, res.body.code]).toEqual([status, code]);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
  if (pointers) expect((res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toEqual(pointers);
}

/** A six-digit code that is none of the owner's codes of the window around `atMs`. */
function wrongCode(owner: Owner, atMs: number): string {
  const window = new Set([-1, 0, 1].map((d) => totpCodeAt(owner.totp_secret, atMs + d * STEP)));
  for (let n = 0; ; n++) {
    const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!window.has(candidate)) return candidate;
  }
}

describe('console API (CONTRACT §10)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 10, 0, 5)); // 10:00:05, mid-step
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestApp({ logLevel: 'info' }, { clock, logStream });
  });
  afterAll(() => app.close());

  describe('the console key', () => {
    it('is required: 401 missing_token without it, invalid_token with a wrong one', async () => {
      const none = await app.console().post('/console/v1/organizations').send({ name: 'X' });
      expectProblem(none, 401, 'missing_token');
      const wrong = await app.console().post('/console/v1/organizations').set('Authorization', 'Bearer not-the-key-0123456789').send({ name: 'X' });
      expectProblem(wrong, 401, 'invalid_token');
    });

    it('is not looked at for an unknown path (404 first)', async () => {
      expectProblem(await app.console().post('/console/v1/nothing-here').send({}), 404, 'not_found');
    });
  });

  describe('organizations and accounts', () => {
    it('creates an organization: 201 {id}', async () => {
      const res = await consolePost(app, '/organizations', { name: 'Bageriet ApS' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      expect(res.body.id).toMatch(UUID);
    });

    it.each([
      [{}, ['/name']],
      [{ name: null }, ['/name']],
      [{ name: '' }, ['/name']],
      [{ name: 'X', colour: 'red' }, ['/colour']],
    ])('refuses organization body %j with 400 invalid_input', async (body, pointers) => {
      expectProblem(await consolePost(app, '/organizations', body), 400, 'invalid_input', pointers);
    });

    it('creates accounts with numbers of 1 to 20 characters; 409 resource_conflict for a number the organization has', async () => {
      const org = await aProductionOrganization(app, { accounts: 0 });
      const first = await consolePost(app, `/organizations/${org.id}/accounts`, { number: '1000', name: 'Salg af varer' });
      expect(first.status).toBe(201);
      expect(Object.keys(first.body)).toEqual(['id']);
      expect(first.body.id).toMatch(UUID);
      expect((await consolePost(app, `/organizations/${org.id}/accounts`, { number: 'x'.repeat(20), name: 'Lang' })).status).toBe(201);
      expect((await consolePost(app, `/organizations/${org.id}/accounts`, { number: '1', name: 'Kort' })).status).toBe(201);

      const dup = await consolePost(app, `/organizations/${org.id}/accounts`, { number: '1000', name: 'Andet navn' });
      expectProblem(dup, 409, 'resource_conflict');
      expect(dup.text).not.toContain(String(first.body.id));

      // the same number in another organization is fine
      const other = await aProductionOrganization(app, { accounts: 0 });
      expect((await consolePost(app, `/organizations/${other.id}/accounts`, { number: '1000', name: 'Salg' })).status).toBe(201);
    });

    it.each([
      [{ number: 'x'.repeat(21), name: 'A' }, ['/number']],
      [{ number: '', name: 'A' }, ['/number']],
      [{ number: 1000, name: 'A' }, ['/number']],
      [{ number: '1000' }, ['/name']],
      [{ number: '1000', name: 'A', active: false }, ['/active']],
    ])('refuses account body %j with 400 invalid_input', async (body, pointers) => {
      const org = await aProductionOrganization(app, { accounts: 0 });
      expectProblem(await consolePost(app, `/organizations/${org.id}/accounts`, body), 400, 'invalid_input', pointers);
    });

    it('answers 404 for an unknown or non-uuid organization, before looking at the body', async () => {
      expectProblem(await consolePost(app, `/organizations/${UNKNOWN_ID}/accounts`, { number: '1', name: 'A' }), 404, 'not_found');
      expectProblem(await consolePost(app, '/organizations/not-a-uuid/accounts', { number: '1', name: 'A' }), 404, 'not_found');
      expectProblem(await consolePost(app, `/organizations/${UNKNOWN_ID}/accounts`, { bad: true }), 404, 'not_found');
    });

    it('takes an upper-case organization id as the same organization', async () => {
      const org = await aProductionOrganization(app, { accounts: 0 });
      expect((await consolePost(app, `/organizations/${org.id.toUpperCase()}/accounts`, { number: '1', name: 'A' })).status).toBe(201);
      expectProblem(await consolePost(app, `/organizations/${org.id}/accounts`, { number: '1', name: 'B' }), 409, 'resource_conflict');
    });

    it('deactivates an account: 200 {id, active: false}, again 200; 404 for unknown or non-uuid ids', async () => {
      const org = await aProductionOrganization(app, { accounts: 1 });
      const id = org.accounts[0].id;
      const res = await consolePost(app, `/accounts/${id}/deactivate`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, active: false });
      // a bodiless POST is `{}` on the console
      const again = await app.console().post(`/console/v1/accounts/${id.toUpperCase()}/deactivate`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      expect([again.status, again.body]).toEqual([200, { id, active: false }]);
      expectProblem(await consolePost(app, `/accounts/${UNKNOWN_ID}/deactivate`), 404, 'not_found');
      expectProblem(await consolePost(app, '/accounts/1000/deactivate'), 404, 'not_found');
      expectProblem(await consolePost(app, `/accounts/${id}/deactivate`, { active: true }), 400, 'invalid_input', ['/active']);
    });

    it('creates tax codes; 409 for a code the organization has; 400 for a bad rate', async () => {
      const org = await aProductionOrganization(app, { accounts: 0 });
      const res = await consolePost(app, `/organizations/${org.id}/tax-codes`, { code: 'U25', rate_basis_points: 2500 });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      expectProblem(await consolePost(app, `/organizations/${org.id}/tax-codes`, { code: 'U25', rate_basis_points: 0 }), 409, 'resource_conflict');
      expectProblem(await consolePost(app, `/organizations/${org.id}/tax-codes`, { code: 'I25', rate_basis_points: -1 }), 400, 'invalid_input', [
        '/rate_basis_points',
      ]);
      expectProblem(await consolePost(app, `/organizations/${org.id}/tax-codes`, { code: 'I25', rate_basis_points: '2500' }), 400, 'invalid_input', [
        '/rate_basis_points',
      ]);
      expectProblem(await consolePost(app, `/organizations/${UNKNOWN_ID}/tax-codes`, { code: 'I25', rate_basis_points: 2500 }), 404, 'not_found');
    });

    it('enrols an owner: 201 {user_id, totp_secret} with a base32 secret of 160 bits', async () => {
      const org = await aProductionOrganization(app, { accounts: 0 });
      const res = await consolePost(app, `/organizations/${org.id}/owners`, { email: `ejer-${Date.now()}-${Math.random()}@bageriet.dk` });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['totp_secret', 'user_id']);
      expect(res.body.user_id).toMatch(UUID);
      expect(res.body.totp_secret).toMatch(/^[A-Z2-7]{32}$/);
      expectProblem(await consolePost(app, `/organizations/${org.id}/owners`, { email: 'no-at-sign' }), 400, 'invalid_input', ['/email']);
      expectProblem(await consolePost(app, `/organizations/${UNKNOWN_ID}/owners`, { email: 'a@b.dk' }), 404, 'not_found');
    });
  });

  describe('apps and revisions', () => {
    it('numbers revisions 1, 2, 3 per app', async () => {
      const a = await consolePost(app, '/apps', { name: 'Kasseapp' });
      expect(a.status).toBe(201);
      expect(Object.keys(a.body)).toEqual(['id']);
      const revisions = [];
      for (let i = 0; i < 3; i++) {
        const r = await consolePost(app, `/apps/${a.body.id}/revisions`);
        expect(r.status).toBe(201);
        revisions.push(r.body);
      }
      expect(revisions.map((r) => r.number)).toEqual([1, 2, 3]);
      expect(revisions.map((r) => Object.keys(r).sort())).toEqual([
        ['id', 'number'],
        ['id', 'number'],
        ['id', 'number'],
      ]);
      expect(new Set(revisions.map((r) => r.id)).size).toBe(3);
      // another app starts at 1
      const b = await consolePost(app, '/apps', { name: 'Andet' });
      expect((await consolePost(app, `/apps/${b.body.id}/revisions`)).body.number).toBe(1);
    });

    it('approves a revision: 200 {id, number, approved: true}', async () => {
      const a = await consolePost(app, '/apps', { name: 'App' });
      await consolePost(app, `/apps/${a.body.id}/revisions`);
      const rev2 = await consolePost(app, `/apps/${a.body.id}/revisions`);
      const res = await consolePost(app, `/apps/${a.body.id}/revisions/${rev2.body.id}/approve`);
      expect([res.status, res.body]).toEqual([200, { id: rev2.body.id, number: 2, approved: true }]);
    });

    it('answers 404 for an unknown app, a revision of another app, and non-uuid ids', async () => {
      const a = await consolePost(app, '/apps', { name: 'A' });
      const b = await consolePost(app, '/apps', { name: 'B' });
      const revOfB = await consolePost(app, `/apps/${b.body.id}/revisions`);
      expectProblem(await consolePost(app, `/apps/${UNKNOWN_ID}/revisions`), 404, 'not_found');
      expectProblem(await consolePost(app, '/apps/abc/revisions'), 404, 'not_found');
      expectProblem(await consolePost(app, `/apps/${a.body.id}/revisions/${revOfB.body.id}/approve`), 404, 'not_found');
      expectProblem(await consolePost(app, `/apps/${a.body.id}/revisions/not-a-uuid/approve`), 404, 'not_found');
      expectProblem(await consolePost(app, `/apps/${a.body.id}/revisions`, { number: 5 }), 400, 'invalid_input', ['/number']);
    });
  });

  describe('grants', () => {
    interface Setup {
      org: Awaited<ReturnType<typeof aProductionOrganization>>;
      owner: Owner;
      appId: string;
    }

    async function setup(): Promise<Setup> {
      const org = await aProductionOrganization(app, { accounts: 3 });
      const owner = await anOwner(app, org.id);
      const { id: appId } = await anApprovedApp(app);
      return { org, owner, appId };
    }

    function grantBody(s: Setup, overrides: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        app_id: s.appId,
        owner_user_id: s.owner.user_id,
        totp_code: codeOf(s.owner, clock.nowMs()),
        account_ids: s.org.accounts.map((a) => a.id),
        scopes: ['journal:prepare'],
        ...overrides,
      };
    }

    const createGrant = (s: Setup, overrides: Record<string, unknown> = {}, org = s.org.id) =>
      consolePost(app, `/organizations/${org}/grants`, grantBody(s, overrides));

    it('gives a grant: 201 {id, expires_at}, 90 days by default', async () => {
      const s = await setup();
      const res = await createGrant(s, { scopes: ALL_SCOPES });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'id']);
      expect(res.body.id).toMatch(UUID);
      // the clock stands at 2026-11-20T10:00:05Z; + 90 days
      expect(res.body.expires_at).toBe('2027-02-18T10:00:05.000Z');
    });

    it('takes duration_seconds from 1 to 7,776,000; null is the default', async () => {
      const s = await setup();
      const max = await createGrant(s, { duration_seconds: 7_776_000 });
      expect([max.status, max.body.expires_at]).toEqual([201, '2027-02-18T10:00:05.000Z']);
      const s2 = await setup();
      const one = await createGrant(s2, { duration_seconds: 1 });
      expect([one.status, one.body.expires_at]).toEqual([201, '2026-11-20T10:00:06.000Z']);
      const s3 = await setup();
      const nul = await createGrant(s3, { duration_seconds: null });
      expect([nul.status, nul.body.expires_at]).toEqual([201, '2027-02-18T10:00:05.000Z']);
    });

    it.each([[7_776_001], [0], [-5], [1.5], ['3600'], [true]])('refuses duration_seconds %j with 400 at /duration_seconds', async (duration) => {
      const s = await setup();
      expectProblem(await createGrant(s, { duration_seconds: duration }), 400, 'invalid_input', ['/duration_seconds']);
    });

    it('refuses an account of another organization with 400 at /account_ids/N, naming nothing of it', async () => {
      const s = await setup();
      const foreign = await aProductionOrganization(app, { accounts: 1, name: 'Fremmed Holding A/S' });
      const res = await createGrant(s, { account_ids: [s.org.accounts[0].id, foreign.accounts[0].id] });
      expectProblem(res, 400, 'invalid_input', ['/account_ids/1']);
      expect(res.text).not.toContain('Fremmed');
      expect(res.text).not.toContain(foreign.id);
    });

    it.each([
      ['a non-uuid item', (ids: string[]) => [ids[0], 'konto-1000'], ['/account_ids/1']],
      ['an unknown uuid', (ids: string[]) => [UNKNOWN_ID, ids[0]], ['/account_ids/0']],
      ['a number', (ids: string[]) => [ids[0], 1000], ['/account_ids/1']],
      ['a repeated id (also in upper case)', (ids: string[]) => [ids[0], ids[1], ids[0].toUpperCase()], ['/account_ids/2']],
      ['an empty list', () => [], ['/account_ids']],
      ['not a list', (ids: string[]) => ids[0], ['/account_ids']],
      ['1,001 ids', () => Array.from({ length: 1001 }, () => UNKNOWN_ID), ['/account_ids']],
    ])('refuses account_ids with %s', async (_, ids, pointers) => {
      const s = await setup();
      const accountIds = (ids as (x: string[]) => unknown)(s.org.accounts.map((a) => a.id));
      expectProblem(await createGrant(s, { account_ids: accountIds }), 400, 'invalid_input', pointers);
    });

    it.each([
      [['journal:prepare', 'journal:delete'], ['/scopes/1']],
      [['journal:prepare', 'journal:prepare'], ['/scopes/1']],
      [[], ['/scopes']],
      ['journal:prepare', ['/scopes']],
    ])('refuses scopes %j', async (scopes, pointers) => {
      const s = await setup();
      expectProblem(await createGrant(s, { scopes }), 400, 'invalid_input', pointers);
    });

    it.each([
      ['an unknown field', { colour: 'red' }, ['/colour']],
      ['no app_id', { app_id: undefined }, ['/app_id']],
      ['a non-uuid app_id', { app_id: 'kasse' }, ['/app_id']],
      ['no owner_user_id', { owner_user_id: undefined }, ['/owner_user_id']],
    ])('refuses %s with 400', async (_, overrides, pointers) => {
      const s = await setup();
      expectProblem(await createGrant(s, overrides), 400, 'invalid_input', pointers);
    });

    it('answers 404 for an unknown app and 409 app_not_approved for an app without an approved revision', async () => {
      const s = await setup();
      expectProblem(await createGrant(s, { app_id: UNKNOWN_ID }), 404, 'not_found');
      const unapproved = await consolePost(app, '/apps', { name: 'Ikke godkendt' });
      await consolePost(app, `/apps/${unapproved.body.id}/revisions`);
      expectProblem(await createGrant(s, { app_id: unapproved.body.id }), 409, 'app_not_approved');
    });

    it('checks in the order: organization 404, body 400, app 404, 409, then 403', async () => {
      const s = await setup();
      const foreign = await aProductionOrganization(app, { accounts: 1 });
      const unapproved = await consolePost(app, '/apps', { name: 'Ikke godkendt' });
      // unknown organization with a bad body: 404
      expectProblem(await createGrant(s, { duration_seconds: 0 }, UNKNOWN_ID), 404, 'not_found');
      expectProblem(await createGrant(s, { duration_seconds: 0 }, 'nope'), 404, 'not_found');
      // a bad body (shape, or a foreign account) with an unknown app: 400
      expectProblem(await createGrant(s, { duration_seconds: 0, app_id: UNKNOWN_ID }), 400, 'invalid_input', ['/duration_seconds']);
      expectProblem(await createGrant(s, { account_ids: [foreign.accounts[0].id], app_id: UNKNOWN_ID }), 400, 'invalid_input', ['/account_ids/0']);
      // a bad body with no code: 400, not 403
      expectProblem(await createGrant(s, { scopes: ['nope'], totp_code: undefined }), 400, 'invalid_input', ['/scopes/0']);
      // an unknown app with no code: 404
      expectProblem(await createGrant(s, { app_id: UNKNOWN_ID, totp_code: undefined }), 404, 'not_found');
      // an unapproved app with a wrong code: 409
      expectProblem(await createGrant(s, { app_id: unapproved.body.id, totp_code: 'x' }), 409, 'app_not_approved');
      // everything else right, no code: 403
      expectProblem(await createGrant(s, { totp_code: undefined }), 403, 'aal2_required');
    });

    describe('aal2: a current, unused code of an owner of the organization, else 403', () => {
      it.each([
        ['no code', () => ({ totp_code: undefined })],
        ['null', () => ({ totp_code: null })],
        ['the right code as a number', (s: Setup) => ({ totp_code: Number(codeOf(s.owner, clock.nowMs())) })],
        ['an object', () => ({ totp_code: { code: '123456' } })],
        ['a wrong code', (s: Setup) => ({ totp_code: wrongCode(s.owner, clock.nowMs()) })],
        ['a code two steps old', (s: Setup) => ({ totp_code: codeOf(s.owner, clock.nowMs() - 2 * STEP) })],
        ['a code two steps ahead', (s: Setup) => ({ totp_code: codeOf(s.owner, clock.nowMs() + 2 * STEP) })],
        ['an empty string', () => ({ totp_code: '' })],
        ['a user who is not an owner', () => ({ owner_user_id: UNKNOWN_ID })],
      ])('refuses %s', async (_, overrides) => {
        const s = await setup();
        const res = await createGrant(s, overrides(s));
        expectProblem(res, 403, 'aal2_required');
        expect(res.body.errors).toBeUndefined();
      });

      it('refuses the current code of an owner of another organization', async () => {
        const s = await setup();
        const other = await aProductionOrganization(app, { accounts: 0 });
        const stranger = await anOwner(app, other.id);
        expectProblem(await createGrant(s, { owner_user_id: stranger.user_id, totp_code: codeOf(stranger, clock.nowMs()) }), 403, 'aal2_required');
      });

      it('refuses the owner code given for another user id of the organization', async () => {
        const s = await setup();
        const second = await anOwner(app, s.org.id);
        expectProblem(await createGrant(s, { owner_user_id: second.user_id, totp_code: codeOf(s.owner, clock.nowMs()) }), 403, 'aal2_required');
      });

      it('accepts a code one step old or one step ahead', async () => {
        const s = await setup();
        expect((await createGrant(s, { totp_code: codeOf(s.owner, clock.nowMs() - STEP) })).status).toBe(201);
        const s2 = await setup();
        expect((await createGrant(s2, { totp_code: codeOf(s2.owner, clock.nowMs() + STEP) })).status).toBe(201);
      });

      it('refuses a replayed code, and any code of that step or earlier', async () => {
        const s = await setup();
        const code = codeOf(s.owner, clock.nowMs());
        expect((await createGrant(s, { totp_code: code })).status).toBe(201);
        expectProblem(await createGrant(s, { totp_code: code }), 403, 'aal2_required');
        expectProblem(await createGrant(s, { totp_code: codeOf(s.owner, clock.nowMs() - STEP) }), 403, 'aal2_required');
        // the next step's code is still good
        expect((await createGrant(s, { totp_code: codeOf(s.owner, clock.nowMs() + STEP) })).status).toBe(201);
        // and having used step + 1, the current step is closed too
        const s2 = await setup();
        expect((await createGrant(s2, { totp_code: codeOf(s2.owner, clock.nowMs() + STEP) })).status).toBe(201);
        expectProblem(await createGrant(s2, { totp_code: codeOf(s2.owner, clock.nowMs()) }), 403, 'aal2_required');
      });

      it('uses a code up only when the call succeeds', async () => {
        const s = await setup();
        const code = codeOf(s.owner, clock.nowMs());
        const unapproved = await consolePost(app, '/apps', { name: 'Ikke godkendt' });
        expectProblem(await createGrant(s, { totp_code: code, app_id: unapproved.body.id }), 409, 'app_not_approved');
        expectProblem(await createGrant(s, { totp_code: code, app_id: UNKNOWN_ID }), 404, 'not_found');
        expectProblem(await createGrant(s, { totp_code: code, scopes: ['nope'] }), 400, 'invalid_input');
        expectProblem(await createGrant(s, { totp_code: code, duration_seconds: 7_776_001 }), 400, 'invalid_input');
        expect((await createGrant(s, { totp_code: code })).status).toBe(201);
      });

      it('lets only one of three concurrent calls with the same code succeed (two grants, a mandate)', async () => {
        const s = await setup();
        const { id: secondApp } = await anApprovedApp(app);
        const code = codeOf(s.owner, clock.nowMs());
        const results = await Promise.all([
          createGrant(s, { totp_code: code }),
          createGrant(s, { totp_code: code, app_id: secondApp }),
          consolePost(app, `/organizations/${s.org.id}/mandates`, { app_id: s.appId, owner_user_id: s.owner.user_id, totp_code: code }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
      });
    });

    it('supersedes the previous grant of (organization, app): one grant in force', async () => {
      const s = await setup();
      const first = await createGrant(s);
      const second = await createGrant(s, { totp_code: codeOf(s.owner, clock.nowMs() + STEP) });
      expect([first.status, second.status]).toEqual([201, 201]);
      const rows: Array<{ id: string; superseded: boolean }> = await app.apps.dataSource.query(
        `SELECT id, superseded_at IS NOT NULL AS superseded FROM grants WHERE organization_id = $1 ORDER BY granted_at, superseded_at NULLS LAST`,
        [s.org.id],
      );
      expect(rows).toEqual([
        { id: first.body.id, superseded: true },
        { id: second.body.id, superseded: false },
      ]);
    });

    it('revokes a grant: 200 {id, revoked: true}, again 200; 404 for unknown or non-uuid ids', async () => {
      const s = await setup();
      const grant = await createGrant(s);
      const res = await consolePost(app, `/grants/${grant.body.id}/revoke`);
      expect([res.status, res.body]).toEqual([200, { id: grant.body.id, revoked: true }]);
      expect((await consolePost(app, `/grants/${grant.body.id}/revoke`)).status).toBe(200);
      expectProblem(await consolePost(app, `/grants/${UNKNOWN_ID}/revoke`), 404, 'not_found');
      expectProblem(await consolePost(app, '/grants/g-1/revoke'), 404, 'not_found');
    });

    it('issues hat_ tokens for a grant with the production base URL, storing only their hash', async () => {
      const s = await setup();
      const grant = await createGrant(s);
      const res = await consolePost(app, `/grants/${grant.body.id}/tokens`);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['base_url', 'token']);
      expect(res.body.token).toMatch(/^hat_[0-9A-Za-z]{46}$/);
      expect(res.body.base_url).toBe('http://localhost:3000/api/partner/v1');
      const second = await consolePost(app, `/grants/${grant.body.id}/tokens`);
      expect(second.body.token).not.toBe(res.body.token);

      const dataSource = app.apps.partner.get(DataSource);
      const rows: Array<{ token_hash: string }> = await dataSource.query(`SELECT token_hash FROM access_tokens WHERE grant_id = $1 ORDER BY created_at`, [
        grant.body.id,
      ]);
      const sha256 = (t: unknown) => createHash('sha256').update(String(t)).digest('hex');
      expect(rows.map((r) => r.token_hash).sort()).toEqual([sha256(res.body.token), sha256(second.body.token)].sort());
      const leaked: unknown[] = await dataSource.query(`SELECT 1 FROM access_tokens t WHERE t.token_hash = $1 OR t.token_hash = $2`, [
        res.body.token,
        second.body.token,
      ]);
      expect(leaked).toEqual([]);
    });

    it('issues a token for a revoked grant too (its state is checked on each call); 404 for an unknown grant', async () => {
      const s = await setup();
      const grant = await createGrant(s);
      await consolePost(app, `/grants/${grant.body.id}/revoke`);
      expect((await consolePost(app, `/grants/${grant.body.id}/tokens`)).status).toBe(201);
      expectProblem(await consolePost(app, `/grants/${UNKNOWN_ID}/tokens`), 404, 'not_found');
      expectProblem(await consolePost(app, '/grants/xyz/tokens'), 404, 'not_found');
      expectProblem(await consolePost(app, `/grants/${grant.body.id}/tokens`, { scopes: [] }), 400, 'invalid_input', ['/scopes']);
    });
  });

  describe('mandates', () => {
    async function setup() {
      const org = await aProductionOrganization(app, { accounts: 0 });
      const owner = await anOwner(app, org.id);
      const { id: appId } = await anApprovedApp(app);
      return { org, owner, appId };
    }

    it('creates a mandate with an owner code: 201 {id}; revokes it: 200 {id, revoked: true}', async () => {
      const s = await setup();
      const res = await consolePost(app, `/organizations/${s.org.id}/mandates`, {
        app_id: s.appId,
        owner_user_id: s.owner.user_id,
        totp_code: codeOf(s.owner, clock.nowMs()),
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      expect(res.body.id).toMatch(UUID);
      const revoked = await consolePost(app, `/mandates/${res.body.id}/revoke`);
      expect([revoked.status, revoked.body]).toEqual([200, { id: res.body.id, revoked: true }]);
      expect((await consolePost(app, `/mandates/${res.body.id}/revoke`)).status).toBe(200);
      expectProblem(await consolePost(app, `/mandates/${UNKNOWN_ID}/revoke`), 404, 'not_found');
      expectProblem(await consolePost(app, '/mandates/m1/revoke'), 404, 'not_found');
    });

    it('keeps one mandate in force per (organization, app): a new one replaces the previous', async () => {
      const s = await setup();
      const body = (atMs: number) => ({ app_id: s.appId, owner_user_id: s.owner.user_id, totp_code: codeOf(s.owner, atMs) });
      const first = await consolePost(app, `/organizations/${s.org.id}/mandates`, body(clock.nowMs()));
      const second = await consolePost(app, `/organizations/${s.org.id}/mandates`, body(clock.nowMs() + STEP));
      expect([first.status, second.status]).toEqual([201, 201]);
      const rows: Array<{ id: string }> = await app.apps.dataSource.query(`SELECT id FROM mandates WHERE organization_id = $1 AND revoked_at IS NULL`, [
        s.org.id,
      ]);
      expect(rows).toEqual([{ id: second.body.id }]);
    });

    it('checks organization 404, body 400, app 404, then the code 403', async () => {
      const s = await setup();
      const post = (org: string, body: Record<string, unknown>) => consolePost(app, `/organizations/${org}/mandates`, body);
      const good = { app_id: s.appId, owner_user_id: s.owner.user_id };
      expectProblem(await post(UNKNOWN_ID, { ...good, extra: 1 }), 404, 'not_found');
      expectProblem(await post(s.org.id, { ...good, extra: 1 }), 400, 'invalid_input', ['/extra']);
      expectProblem(await post(s.org.id, { ...good, app_id: UNKNOWN_ID }), 404, 'not_found');
      expectProblem(await post(s.org.id, good), 403, 'aal2_required');
      expectProblem(await post(s.org.id, { ...good, totp_code: null }), 403, 'aal2_required');
      expectProblem(await post(s.org.id, { ...good, totp_code: 123456 }), 403, 'aal2_required');
      expectProblem(await post(s.org.id, { ...good, totp_code: wrongCode(s.owner, clock.nowMs()) }), 403, 'aal2_required');
      expectProblem(await post(s.org.id, { ...good, owner_user_id: UNKNOWN_ID, totp_code: codeOf(s.owner, clock.nowMs()) }), 403, 'aal2_required');
      const code = codeOf(s.owner, clock.nowMs());
      expect((await post(s.org.id, { ...good, totp_code: code })).status).toBe(201);
      expectProblem(await post(s.org.id, { ...good, totp_code: code }), 403, 'aal2_required');
    });
  });

  it('never shows a TOTP secret or a token again: not in later answers, not in any log line', async () => {
    const before = logLines.length;
    const org = await aProductionOrganization(app, { accounts: 2 });
    const owner = await anOwner(app, org.id);
    const { id: appId } = await anApprovedApp(app);
    const answers: string[] = [];
    const keep = <T extends { text: string }>(r: T) => (answers.push(r.text), r);
    const grant = keep(
      await consolePost(app, `/organizations/${org.id}/grants`, {
        app_id: appId,
        owner_user_id: owner.user_id,
        totp_code: codeOf(owner, clock.nowMs()),
        account_ids: org.accounts.map((a) => a.id),
        scopes: ['journal:prepare'],
      }),
    );
    keep(await consolePost(app, `/organizations/${org.id}/grants`, { app_id: appId, owner_user_id: owner.user_id, totp_code: owner.totp_secret }));
    const token = await aToken(app, grant.body.id);
    keep(
      await app
        .partner()
        .post(`${PRODUCTION}/journal/prepare`)
        .set('Authorization', `Bearer ${token}`)
        .send(aJournal(org.accounts.map((a) => a.id))),
    );
    keep(await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${token}`).send({}));
    keep(await consolePost(app, `/grants/${grant.body.id}/revoke`));
    keep(await app.partner().post(`${PRODUCTION}/journal/prepare`).set('Authorization', `Bearer ${token}`).send({}));
    const mandate = keep(
      await consolePost(app, `/organizations/${org.id}/mandates`, {
        app_id: appId,
        owner_user_id: owner.user_id,
        totp_code: codeOf(owner, clock.nowMs() + STEP),
      }),
    );
    expect([grant.status, mandate.status]).toEqual([201, 201]);

    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(10);
    for (const text of [...answers, ...lines]) {
      expect(text).not.toContain(owner.totp_secret);
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(4, 44));
    }
  });

  describe('the CLI (npm run console -- …) as a client of this API', () => {
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      await app.apps.console!.listen(0, '127.0.0.1');
      const { port } = app.apps.console!.getHttpServer().address() as AddressInfo;
      env = { CONSOLE_HOST: '127.0.0.1', CONSOLE_PORT: String(port), CONSOLE_API_KEY: TEST_CONSOLE_KEY };
    });

    async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
      let out = '';
      let err = '';
      const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), fetch, env, nowMs: () => clock.nowMs() });
      return { code, out, err };
    }
    const json = async (...argv: string[]) => {
      const r = await cli(...argv);
      if (r.code !== 0) throw new Error(`${argv.join(' ')} → ${r.code} ${r.err}`);
      return JSON.parse(r.out);
    };

    it('issue 35 finding 10: owner passwords come from OWNER_PASSWORD or stdin, never from an argument', async () => {
      const io = (extraEnv: NodeJS.ProcessEnv, stdin?: string) => {
        const r = { out: '', err: '' };
        return {
          r,
          io: {
            out: (t: string) => (r.out += t),
            err: (t: string) => (r.err += t),
            fetch,
            env: { ...env, ...extraEnv },
            ...(stdin === undefined ? {} : { stdin: async () => stdin }),
          },
        };
      };
      const hash = async (userId: string) =>
        (await app.apps.dataSource.query('SELECT password_hash FROM users WHERE id = $1', [userId]))[0].password_hash as string | null;
      const org = await json('org', 'create', '--name', 'Adgangskode ApS');
      const enrol = io({ OWNER_PASSWORD: 'fra miljøet og lang nok' });
      expect(await runCli(['owner', 'enrol', '--org', org.id, '--email', `cli-owner-${Date.now()}@example.dk`], enrol.io)).toBe(0);
      const owner = JSON.parse(enrol.r.out) as { user_id: string };
      const first = await hash(owner.user_id);
      expect(first).toMatch(/^\$argon2id\$/);
      const fromStdin = io({}, 'fra stdin og også lang nok\n');
      expect(await runCli(['owner', 'password', owner.user_id, '--password-stdin'], fromStdin.io)).toBe(0);
      const second = await hash(owner.user_id);
      expect(second).toMatch(/^\$argon2id\$/);
      expect(second).not.toBe(first);
      // an argument is refused before anything is sent: the hash stays
      const argument = io({});
      expect(await runCli(['owner', 'password', owner.user_id, '--password', 'på kommandolinjen, lang nok'], argument.io)).toBe(2);
      expect(argument.r.err).toContain('OWNER_PASSWORD');
      expect(await hash(owner.user_id)).toBe(second);
    });

    it('sets up a production grant from scratch, and the token prepares a journal', async () => {
      const org = await json('org', 'create', '--name', 'CLI ApS');
      const a1 = await json('account', 'create', '--org', org.id, '--number', '1000', '--name', 'Salg');
      const a2 = await json('account', 'create', '--org', org.id, '--number', '12000', '--name', 'Bank');
      expect((await json('tax-code', 'create', '--org', org.id, '--code', 'U25', '--rate-basis-points', '2500')).id).toMatch(UUID);
      const owner = await json('owner', 'enrol', '--org', org.id, '--email', 'ejer@cli.dk');
      const theApp = await json('app', 'create', '--name', 'CLI app');
      const rev = await json('revision', 'create', '--app', theApp.id);
      expect(rev.number).toBe(1);
      expect(await json('revision', 'approve', '--app', theApp.id, '--revision', rev.id)).toEqual({ id: rev.id, number: 1, approved: true });
      let totpOut = '';
      // the secret in TOTP_SECRET, never an argument (ps, shell history)
      const code = await runCli(['totp', 'code'], {
        out: (t) => (totpOut += t),
        err: () => undefined,
        fetch,
        env: { ...env, TOTP_SECRET: owner.totp_secret },
        nowMs: () => clock.nowMs(),
      }).then((exit) => ({ code: exit, out: totpOut }));
      expect(code.code).toBe(0);
      expect(code.out).toBe(`${totpCodeAt(owner.totp_secret, clock.nowMs())}\n`);
      const grant = await json(
        'grant',
        'create',
        '--org',
        org.id,
        '--app',
        theApp.id,
        '--owner',
        owner.user_id,
        '--totp',
        code.out.trim(),
        '--accounts',
        `${a1.id},${a2.id}`,
        '--scopes',
        'journal:prepare,products:create',
        '--duration',
        '3600',
      );
      expect(grant.expires_at).toBe(new Date(clock.nowMs() + 3_600_000).toISOString());
      const issued = await json('token', 'issue', grant.id);
      const prepare = await app
        .partner()
        .post(`${PRODUCTION}/journal/prepare`)
        .set('Authorization', `Bearer ${issued.token}`)
        .send(aJournal([a1.id, a2.id]));
      expect(prepare.status).toBe(200);

      const mandate = await json(
        'mandate',
        'create',
        '--org',
        org.id,
        '--app',
        theApp.id,
        '--owner',
        owner.user_id,
        '--totp',
        totpCodeAt(owner.totp_secret, clock.nowMs() + STEP),
      );
      expect(await json('mandate', 'revoke', mandate.id)).toEqual({ id: mandate.id, revoked: true });
      expect(await json('account', 'deactivate', a1.id)).toEqual({ id: a1.id, active: false });
      expect(await json('grant', 'revoke', grant.id)).toEqual({ id: grant.id, revoked: true });
      const stopped = await app
        .partner()
        .post(`${PRODUCTION}/journal/prepare`)
        .set('Authorization', `Bearer ${issued.token}`)
        .send(aJournal([a1.id, a2.id]));
      expect([stopped.status, stopped.body.code]).toEqual([403, 'grant_revoked']);
    });

    it('provisions a sandbox project and a new generation', async () => {
      const project = await json('sandbox', 'provision', '--name', 'CLI sandbox');
      expect(project.token).toMatch(/^hsk_/);
      const generation = await json('sandbox', 'generation', project.project_id);
      expect(Object.keys(generation).sort()).toEqual(['generation_id', 'token']);
      const ids = project.accounts.map((a: { id: string }) => a.id);
      const old = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${project.token}`).send(aJournal(ids));
      expect([old.status, old.body.code]).toEqual([401, 'invalid_token']);
      const fresh = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${generation.token}`).send(aJournal(ids));
      expect(fresh.status).toBe(200);
    });

    it('prints the problem on stderr and exits 1 on an error answer', async () => {
      const r = await cli('grant', 'revoke', UNKNOWN_ID);
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(JSON.parse(r.err)).toMatchObject({ status: 404, code: 'not_found' });
    });
  });
});

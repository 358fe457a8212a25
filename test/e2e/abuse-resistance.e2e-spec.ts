import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { createApplications } from '../../src/bootstrap';
import { SecretBox } from '../../src/shared/crypto/secret-box';
import { sealStoredSecrets } from '../../src/shared/crypto/seal-stored-secrets';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import {
  aProductionAccess,
  aProductionOrganization,
  anApprovedApp,
  anOwner,
  codeOf,
  consolePost,
  ManualClock,
  type Owner,
} from '../support/production-fixtures';
import { withNewDatabase } from '../support/new-database';
import { createTestApp, describeNothing, onPostgres, type TestApp, testConfig } from '../support/test-app';

/**
 * The nine findings of the security review (issue 14), each reproduced at a bounded size: every test
 * here failed on the code before the fix.
 */

const STEP_MS = 30_000;

/** A 6-digit code that is none of the owner's acceptable codes (steps −1, 0, +1) at `atMs`. */
function wrongCodeOf(owner: Owner, atMs: number): string {
  const right = new Set([-1, 0, 1].map((d) => totpCodeAt(owner.totp_secret, atMs + d * STEP_MS)));
  for (let n = 0; ; n++) {
    const candidate = String((Number(totpCodeAt(owner.totp_secret, atMs)) + 1 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!right.has(candidate)) return candidate;
  }
}

function captureLog(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
}

describe('finding 1: TOTP lockout of an owner (CONTRACT §8)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 10, 0, 5));
  const logLines: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ logLevel: 'info' }, { clock, logStream: captureLog(logLines) });
  });
  afterAll(() => app.close());

  async function aGrantSetup() {
    const org = await aProductionOrganization(app, { accounts: 2 });
    const owner = await anOwner(app, org.id, `owner-${randomUUID()}@example.dk`);
    const theApp = await anApprovedApp(app);
    const grant = (code: unknown) =>
      consolePost(app, `/organizations/${org.id}/grants`, {
        app_id: theApp.id,
        owner_user_id: owner.user_id,
        totp_code: code,
        account_ids: [org.accounts[0].id],
        scopes: ['journal:prepare'],
      });
    const mandate = (code: unknown) =>
      consolePost(app, `/organizations/${org.id}/mandates`, { app_id: theApp.id, owner_user_id: owner.user_id, totp_code: code });
    return { org, owner, theApp, grant, mandate };
  }

  it('refuses 20 tries after the 5th wrong code with 429 rate_limited, the right code too, for 15 minutes', async () => {
    const s = await aGrantSetup();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await s.grant(wrongCodeOf(s.owner, clock.nowMs()));
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(5).fill(403), ...Array(15).fill(429)]);

    const right = await s.grant(codeOf(s.owner, clock.nowMs()));
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('rate_limited');
    expect(right.headers['content-type']).toMatch(/^application\/problem\+json/);
    // the clock stands still: exactly 15 minutes are left
    expect(right.headers['retry-after']).toBe('900');

    // the same counter guards the mandate call
    expect((await s.mandate(codeOf(s.owner, clock.nowMs()))).status).toBe(429);

    // no grant was created by any of it
    const db = app.apps.partner.get(DataSource);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1`, [s.org.id]);
    expect(n).toBe(0);

    // one warn line with the owner's id (pino level 40), and no secret in it
    const warnings = logLines.filter((l) => l.includes(s.owner.user_id) && l.includes('"level":40'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain(s.owner.totp_secret);

    clock.advance(15 * 60_000 + 1_000);
    const after = await s.grant(codeOf(s.owner, clock.nowMs()));
    expect(after.status).toBe(201);
  });

  it('counts failures although each failing call writes nothing else; 4 wrong codes do not lock', async () => {
    const s = await aGrantSetup();
    for (let i = 0; i < 4; i++) expect((await s.grant(wrongCodeOf(s.owner, clock.nowMs()))).status).toBe(403);
    expect((await s.grant(codeOf(s.owner, clock.nowMs()))).status).toBe(201);
  });

  it('counts wrong codes within 15 minutes only', async () => {
    const s = await aGrantSetup();
    for (let i = 0; i < 4; i++) expect((await s.grant(wrongCodeOf(s.owner, clock.nowMs()))).status).toBe(403);
    clock.advance(15 * 60_000 + 1_000);
    expect((await s.grant(wrongCodeOf(s.owner, clock.nowMs()))).status).toBe(403);
    clock.advance(STEP_MS * 3);
    expect((await s.grant(codeOf(s.owner, clock.nowMs()))).status).toBe(201);
  });

  it('locks one owner only: another owner of the same organization still signs', async () => {
    const s = await aGrantSetup();
    for (let i = 0; i < 5; i++) await s.grant(wrongCodeOf(s.owner, clock.nowMs()));
    const other = await anOwner(app, s.org.id, `other-${randomUUID()}@example.dk`);
    const res = await consolePost(app, `/organizations/${s.org.id}/mandates`, {
      app_id: s.theApp.id,
      owner_user_id: other.user_id,
      totp_code: codeOf(other, clock.nowMs()),
    });
    expect(res.status).toBe(201);
  });
});

describe('finding 2: per-token rate limit (CONTRACT §12)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ rateLimitPerMinute: 5 });
  });
  afterAll(() => app.close());

  /** Keeps a burst inside one wall-clock minute, so that r counts down exactly. */
  async function awayFromMinuteEdge(): Promise<void> {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
  }

  const prepare = (p: SandboxProject) =>
    app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${p.token}`)
      .send(aJournal(p.accounts.map((a) => a.id)));

  it('allows 5 calls per token, then answers 429 rate_limited with Retry-After and executes nothing', async () => {
    const p = await aSandboxProject(app);
    await awayFromMinuteEdge();
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await prepare(p));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const a of answers) expect(a.headers['ratelimit-policy']).toBe('"partner";q=5;w=60');
    expect(answers.slice(0, 4).map((a) => a.headers.ratelimit)).toEqual(['"partner";r=4;t=0', '"partner";r=3;t=0', '"partner";r=2;t=0', '"partner";r=1;t=0']);
    expect(answers[4].headers.ratelimit).toMatch(/^"partner";r=0;t=([1-9]\d*)$/);
    const limited = answers[5];
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(120);
    expect(limited.headers.ratelimit).toBe(`"partner";r=0;t=${limited.headers['retry-after']}`);
  });

  it('counts per token: another token is not limited by the first', async () => {
    const a = await aSandboxProject(app);
    const b = await aSandboxProject(app);
    await awayFromMinuteEdge();
    for (let i = 0; i < 6; i++) await prepare(a);
    expect((await prepare(a)).status).toBe(429);
    const other = await prepare(b);
    expect(other.status).toBe(200);
    expect(other.headers.ratelimit).toBe('"partner";r=4;t=0');
  });

  it('is checked after the token (401 carries no RateLimit headers) and before the grant (429 beats 403)', async () => {
    const missing = await app.partner().post(`${SANDBOX}/journal/prepare`).send({});
    expect(missing.status).toBe(401);
    expect(missing.headers.ratelimit).toBeUndefined();
    const unknown = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', 'Bearer hsk_000000000000000000000000000000000000000014YqlM')
      .send({});
    expect(unknown.status).toBe(401);
    expect(unknown.headers.ratelimit).toBeUndefined();

    const access = await aProductionAccess(app);
    expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
    await awayFromMinuteEdge();
    const call = () =>
      app.partner().post(`${PRODUCTION}/journal/prepare`).set('Authorization', `Bearer ${access.token}`).send(aJournal(access.grantedAccountIds));
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await call();
      statuses.push(res.status);
      expect(res.headers['ratelimit-policy']).toBe('"partner";q=5;w=60');
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  });

  it('RATE_LIMIT_PER_MINUTE=0 turns it off: no 429, no RateLimit headers', async () => {
    const off = await createTestApp({ rateLimitPerMinute: 0 });
    try {
      const p = await aSandboxProject(off);
      for (let i = 0; i < 8; i++) {
        const res = await off
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${p.token}`)
          .send(aJournal(p.accounts.map((a) => a.id)));
        expect(res.status).toBe(200);
        expect(res.headers.ratelimit).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });
});

describe('findings 3, 4, 9: error amplification, letter case, security headers', () => {
  let app: TestApp;
  let p: SandboxProject;
  const logLines: string[] = [];
  beforeAll(async () => {
    app = await createTestApp({ logLevel: 'info' }, { logStream: captureLog(logLines) });
    p = await aSandboxProject(app);
  });
  afterAll(() => app.close());

  const prepareRaw = (body: string) =>
    app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${p.token}`).set('Content-Type', 'application/json').send(body);

  it('finding 3: 256 KiB of empty lines is one violation at /lines, not an 18 MB problem body', async () => {
    const head = '{"posting_date":"2026-11-20","lines":[';
    const count = Math.floor((262_144 - head.length - 2) / 3);
    const body = `${head}${Array(count).fill('{}').join(',')}]}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(262_144);
    const started = Date.now();
    const res = await prepareRaw(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.errors).toEqual([{ pointer: '/lines', code: 'invalid_input', detail: 'must be an array of 2 to 500 items' }]);
    expect(res.text.length).toBeLessThan(2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('finding 3: errors[] holds the first 100 violations in body order, detail states the total', async () => {
    // 300 empty lines: each misses account_id and breaks the line rule — 600 violations
    const res = await prepareRaw(JSON.stringify({ posting_date: '2026-11-20', lines: Array(300).fill({}) }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(100);
    expect(res.body.errors[0].pointer).toBe('/lines/0/account_id');
    expect(res.body.errors[98].pointer).toBe('/lines/49/account_id');
    expect(res.body.errors[99].pointer).toBe('/lines/49');
    expect(res.body.detail).toBe('600 violations; first: /lines/0/account_id is required');
  });

  it('finding 4: a path in other letter case is 404 not_found, with or without a token, and reaches no controller', async () => {
    const before = logLines.length;
    for (const path of [
      '/API/PARTNER/SANDBOX/V1/journal/prepare',
      '/api/partner/sandbox/v1/JOURNAL/prepare',
      '/Api/Partner/V1/products',
      `${SANDBOX}/journal/prepare/`,
    ]) {
      const bare = await app.partner().post(path).set('Content-Type', 'application/json').send('{}');
      expect([path, bare.status, bare.body.code]).toEqual([path, 404, 'not_found']);
      const withToken = await app.partner().post(path).set('Authorization', `Bearer ${p.token}`).set('Content-Type', 'text/plain').send('x');
      expect([path, withToken.status, withToken.body.code]).toEqual([path, 404, 'not_found']);
    }
    expect((await app.partner().get('/HEALTH/LIVE')).status).toBe(404);
    expect((await app.console().post('/CONSOLE/V1/organizations').send({})).status).toBe(404);
    expect(logLines.slice(before).filter((l) => /"level":50/.test(l))).toEqual([]);
  });

  it('finding 9: nosniff on every response; a CSP that allows nothing on JSON and a working one on /docs', async () => {
    const answers = [
      await app.partner().get('/health/live'),
      await app.partner().get('/nothing'),
      await app.partner().post(`${SANDBOX}/journal/prepare`).send({}),
      await app.partner().get(`/${'api/partner/v1'}/openapi.json`),
      await app.console().get('/console/v1/nothing'),
      await consolePost(app, '/organizations', { name: 'Headers ApS' }),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    }
    const docs = await app.partner().get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    const csp = docs.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain("'unsafe-eval'");
    // every script and stylesheet of the page comes from this origin and is served
    const assets = [...docs.text.matchAll(/(?:src|href)=['"]([^'"]+\.(?:js|css))['"]/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^https?:/);
      const url = new URL(asset, 'http://localhost/docs').pathname;
      const res = await app.partner().get(url);
      expect([url, res.status]).toEqual([url, 200]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(docs.text).not.toMatch(/<script>[^<]/); // no inline script the CSP would block
  });
});

describe('finding 7: secrets at rest (CONTRACT §8)', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 11, 0, 5));
  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  it('stores TOTP and webhook signing secrets sealed (AES-256-GCM, key version), never in plain text', async () => {
    const org = await aProductionOrganization(app, { accounts: 1 });
    const owner = await anOwner(app, org.id, `sealed-${randomUUID()}@example.dk`);
    const p = await aSandboxProject(app);
    const endpoint = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: 'https://example.com/hook', environment: 'sandbox' });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);

    const [user] = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [owner.user_id]);
    expect(user.totp_secret).toMatch(/^enc:v1:/);
    expect(user.totp_secret).not.toContain(owner.totp_secret);
    const [ep] = await db.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpoint.body.id]);
    expect(ep.secret).toMatch(/^enc:v1:/);
    expect(ep.secret).not.toContain(endpoint.body.secret.slice('whsec_'.length));
  });

  it('seals rows written before encryption, and the owner still signs with the same secret', async () => {
    const org = await aProductionOrganization(app, { accounts: 1 });
    const owner = await anOwner(app, org.id, `legacy-${randomUUID()}@example.dk`);
    const theApp = await anApprovedApp(app);
    await db.query(`UPDATE users SET totp_secret = $2 WHERE id = $1`, [owner.user_id, owner.totp_secret]); // as before the fix
    const result = await sealStoredSecrets(db, app.apps.partner.get(SecretBox));
    expect(result.sealed).toBeGreaterThanOrEqual(1);
    const [user] = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [owner.user_id]);
    expect(user.totp_secret).toMatch(/^enc:v1:/);
    const mandate = await consolePost(app, `/organizations/${org.id}/mandates`, {
      app_id: theApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner, clock.nowMs()),
    });
    expect(mandate.status).toBe(201);
  });

  it('rotates: a new key listed first reseals every secret under it; the old version still opens meanwhile', async () => {
    const org = await aProductionOrganization(app, { accounts: 1 });
    const owner = await anOwner(app, org.id, `rotate-${randomUUID()}@example.dk`);
    const theApp = await anApprovedApp(app);
    const v1 = app.apps.config.secretsKey!;
    const v2 = `v2:${Buffer.alloc(32, 0x21).toString('base64url')}`;
    const rotated = SecretBox.fromSpec(`${v2},${v1}`);
    await sealStoredSecrets(db, rotated);
    try {
      const [user] = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [owner.user_id]);
      expect(user.totp_secret).toMatch(/^enc:v2:/);
      expect(rotated.open(user.totp_secret, 'users.totp_secret')).toBe(owner.totp_secret);
      // v2 alone cannot open what is left under v1, and v1 alone cannot open v2
      expect(() => SecretBox.fromSpec(v1).open(user.totp_secret, 'users.totp_secret')).toThrow();
      if (onPostgres()) {
        // an instance started with the rotated SECRETS_KEY signs with the owner's unchanged secret
        const second = await createTestApp({ secretsKey: `${v2},${v1}` }, { clock });
        try {
          const res = await consolePost(second, `/organizations/${org.id}/mandates`, {
            app_id: theApp.id,
            owner_user_id: owner.user_id,
            totp_code: codeOf(owner, clock.nowMs()),
          });
          expect(res.status).toBe(201);
        } finally {
          await second.close();
        }
        clock.advance(STEP_MS);
      }
    } finally {
      // back to the suites' key, for the other test files sharing this database
      await sealStoredSecrets(db, SecretBox.fromSpec(`${v1},${v2}`));
    }
    const [back] = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [owner.user_id]);
    expect(back.totp_secret).toMatch(/^enc:v1:/);
    const res = await consolePost(app, `/organizations/${org.id}/mandates`, {
      app_id: theApp.id,
      owner_user_id: owner.user_id,
      totp_code: codeOf(owner, clock.nowMs()),
    });
    expect(res.status).toBe(201);
  });
});

describe('finding 6: DATA_DIR modes (CONTRACT §8)', () => {
  it('refuses to start on a DATA_DIR others can read or write, with one line saying so', async () => {
    for (const mode of [0o755, 0o777, 0o720]) {
      const dir = mkdtempSync(join(tmpdir(), 'partner-api-open-'));
      chmodSync(dir, mode);
      let error: Error | undefined;
      try {
        await createApplications(testConfig({ dataDir: dir, consolePort: 0 }));
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).toMatch(/^DATA_DIR .* can be read or written by other users/);
      expect(error?.message).not.toContain('\n');
    }
  });

  it('creates what it writes with modes 0700/0600 and tightens existing files inside', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'partner-api-modes-')), 'data');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o700);
    mkdirSync(join(dir, 'old'), { mode: 0o755 });
    chmodSync(join(dir, 'old'), 0o755);
    writeFileSync(join(dir, 'old', 'wal'), 'x', { mode: 0o666 });
    chmodSync(join(dir, 'old', 'wal'), 0o666);
    // a generated SECRETS_KEY is another key than the suites' (CONTRACT §8): on PostgreSQL its own database
    const check = async (database = testConfig().database) => {
      const apps = await createApplications(testConfig({ dataDir: dir, consolePort: 0, consoleApiKey: null, secretsKey: null, database }));
      try {
        const mode = (path: string) => statSync(path).mode & 0o777;
        expect(mode(dir)).toBe(0o700);
        expect(mode(join(dir, 'old'))).toBe(0o700);
        expect(mode(join(dir, 'old', 'wal'))).toBe(0o600);
        expect(mode(join(dir, 'secrets-key'))).toBe(0o600);
        expect(mode(join(dir, 'console-api-key'))).toBe(0o600);
      } finally {
        await apps.close();
      }
    };
    await (onPostgres() ? withNewDatabase('modes', (url) => check({ kind: 'postgres', url })) : check());
  });
});

(onPostgres() ? describe : describeNothing)('finding 8: a revocation committed while a write is in flight wins (PostgreSQL)', () => {
  let app: TestApp;
  let holder: Client;
  beforeAll(async () => {
    app = await createTestApp();
    holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await app.close();
  });

  /**
   * A second session holds the organization row, so the write (past the guard's checks) waits at its
   * first statement — the idempotency record's foreign key — until the revocation has committed. Or,
   * with `hold` 'products', the products table (SHARE mode): a grant's revocation writes its
   * grant.revoked event (CONTRACT §18), whose outbox row's foreign key needs the organization row too,
   * which nothing of the service ever holds FOR UPDATE, but this test's session would.
   */
  async function whileHeld<T>(
    organizationId: string,
    write: () => Promise<T>,
    revoke: () => Promise<void>,
    hold: 'organization' | 'products' = 'organization',
  ): Promise<T> {
    await holder.query('BEGIN');
    if (hold === 'products') await holder.query(`LOCK TABLE products IN SHARE MODE`);
    else await holder.query(`SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE`, [organizationId]);
    const pending = write();
    try {
      const deadline = Date.now() + 5_000;
      for (;;) {
        // the write's session waits for this one (its first statement needs the organization row)
        const { rows } = await holder.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND pg_backend_pid() = ANY (pg_blocking_pids(pid))`,
        );
        if (rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error('the write never reached its transaction');
        await new Promise((r) => setTimeout(r, 20));
      }
      await revoke();
    } finally {
      await holder.query('ROLLBACK');
    }
    return pending;
  }

  it('products: the grant revoked mid-flight makes the write 403 grant_revoked and stores nothing', async () => {
    const access = await aProductionAccess(app);
    const code = `INFLIGHT-${randomUUID()}`;
    const res = await whileHeld(
      access.organization.id,
      () =>
        app
          .partner()
          .post(`${PRODUCTION}/products`)
          .set('Authorization', `Bearer ${access.token}`)
          .set('Idempotency-Key', randomUUID())
          .send({ code, name: 'In flight' })
          .then((r) => r),
      async () => {
        expect((await consolePost(app, `/grants/${access.grant.id}/revoke`)).status).toBe(200);
      },
      'products',
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('grant_revoked');
    const { rows } = await holder.query(`SELECT count(*)::int AS n FROM products WHERE code = $1`, [code]);
    expect(rows[0].n).toBe(0);
  });

  it('final posting: the mandate revoked mid-flight makes the write 403 mandate_required and posts nothing', async () => {
    const access = await aProductionAccess(app);
    const mandate = await consolePost(app, `/organizations/${access.organization.id}/mandates`, {
      app_id: access.app.id,
      owner_user_id: access.owner.user_id,
      totp_code: codeOf(access.owner, Date.now() + STEP_MS),
    });
    expect(mandate.status).toBe(201);
    const res = await whileHeld(
      access.organization.id,
      () =>
        app
          .partner()
          .post(`${PRODUCTION}/journal`)
          .set('Authorization', `Bearer ${access.token}`)
          .set('Idempotency-Key', randomUUID())
          .send(aJournal(access.grantedAccountIds))
          .then((r) => r),
      async () => {
        expect((await consolePost(app, `/mandates/${mandate.body.id}/revoke`)).status).toBe(200);
      },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('mandate_required');
    const { rows } = await holder.query(`SELECT count(*)::int AS n FROM journal_entries WHERE organization_id = $1`, [access.organization.id]);
    expect(rows[0].n).toBe(0);
  });
});

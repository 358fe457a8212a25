import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdempotencyService } from '../../src/modules/idempotency/application/idempotency.service';
import { aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, anOwner, codeOf, consolePost, aToken } from '../support/production-fixtures';
import { createTestApp, itOnPostgres, type TestApp } from '../support/test-app';
import { PURGE_SQL } from '../../src/modules/idempotency/infrastructure/pg-idempotency.repository';

describe('POST /products (seed 4.2, CONTRACT §6, §7)', () => {
  let app: TestApp;
  let project: SandboxProject;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    project = await aSandboxProject(app);
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const post = (body: unknown, key: string | null = randomUUID(), token = project.token, base = SANDBOX) => {
    let req = app.partner().post(`${base}/products`).set('Authorization', `Bearer ${token}`);
    if (key !== null) req = req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const code = () => `P-${randomUUID()}`;
  const count = async (sql: string, params: unknown[]) => Number((await db.query(sql, params))[0].n);
  const productsWithCode = (c: string) => count(`SELECT count(*) AS n FROM products WHERE code = $1`, [c]);
  const recordsWithKey = (k: string) => count(`SELECT count(*) AS n FROM idempotency_records WHERE idempotency_key = $1`, [k]);
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('creates a product: 201 with exactly id, created, operation_id, replayed false, environment sandbox', async () => {
    const c = code();
    const res = await post({ code: c, name: 'Konsulenttime', kind: 'services', unit: 'time', unit_price_minor: 95000 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created', 'environment', 'id', 'operation_id', 'replayed']);
    expect(res.body).toMatchObject({ created: true, replayed: false, environment: 'sandbox' });
    expect(res.body.id).toMatch(UUID);
    expect(res.body.operation_id).toMatch(UUID);
    const rows = await db.query(`SELECT name, kind, unit, unit_price_minor, description FROM products WHERE id = $1`, [res.body.id]);
    expect(rows).toEqual([{ name: 'Konsulenttime', kind: 'services', unit: 'time', unit_price_minor: '95000', description: null }]);
  });

  it('replays an identical request: 201, same id and operation_id, replayed true, no environment', async () => {
    const key = randomUUID();
    const body = { code: code(), name: 'Skrue' };
    const first = await post(body, key);
    const again = await post(body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ id: first.body.id, created: true, operation_id: first.body.operation_id, replayed: true });
    expect(await productsWithCode(body.code)).toBe(1);
  });

  it('replays when key order differs and defaults are spelled out', async () => {
    const key = randomUUID();
    const c = code();
    const first = await post({ code: c, name: 'Møtrik' }, key);
    const again = await post({ unit_price_minor: null, unit: 'stk', kind: 'services', description: null, name: 'Møtrik', code: c }, key);
    expect(again.status).toBe(201);
    expect(again.body.replayed).toBe(true);
    expect(again.body.id).toBe(first.body.id);
  });

  it('answers a changed payload under the same key with 409 idempotency_key_reused and stores nothing new', async () => {
    const key = randomUUID();
    const c = code();
    expect((await post({ code: c, name: 'A' }, key)).status).toBe(201);
    const changed = await post({ code: c, name: 'B' }, key);
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('idempotency_key_reused');
    expect(await productsWithCode(c)).toBe(1);
    const priceChanged = await post({ code: c, name: 'A', unit_price_minor: 0 }, key);
    expect(priceChanged.body.code).toBe('idempotency_key_reused'); // null (no price) and 0 (free) differ
  });

  it('refuses a taken code with 409 resource_conflict, revealing nothing, storing nothing; the key is reusable', async () => {
    const c = code();
    const existing = await post({ code: c, name: 'Hemmeligt navn' });
    expect(existing.status).toBe(201);
    const key = randomUUID();
    const conflict = await post({ code: c, name: 'Other' }, key);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('resource_conflict');
    expect(conflict.text).not.toContain(existing.body.id);
    expect(conflict.text).not.toContain('Hemmeligt');
    expect(await recordsWithKey(key)).toBe(0);
    const retry = await post({ code: code(), name: 'Other' }, key);
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(false);
  });

  it('compares codes exactly (case-sensitive)', async () => {
    const c = `case-${randomUUID()}`;
    expect((await post({ code: c, name: 'a' })).status).toBe(201);
    expect((await post({ code: c.toUpperCase(), name: 'a' })).status).toBe(201);
  });

  it('stores nothing for invalid input, so the same key works with corrected input', async () => {
    const key = randomUUID();
    const bad = await post({ code: code(), name: 'x', unit: 'pcs' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_input');
    expect(bad.body.errors).toEqual([{ pointer: '/unit', code: 'invalid_input', detail: expect.any(String) }]);
    expect(await recordsWithKey(key)).toBe(0);
    const ok = await post({ code: code(), name: 'x', unit: 'stk.' }, key);
    expect(ok.status).toBe(201);
  });

  it.each([
    [{ name: 'x' }, 'invalid_input', ['/code']],
    [{ code: null, name: 'x' }, 'invalid_input', ['/code']],
    [{ code: '', name: 'x' }, 'invalid_input', ['/code']],
    [{ code: 'x'.repeat(71), name: 'x' }, 'invalid_input', ['/code']],
    [{ code: '😀'.repeat(70), name: '😀'.repeat(200) }, null, []],
    [{ code: 'c', name: 'x'.repeat(201) }, 'invalid_input', ['/name']],
    [{ code: 'c', name: 'x', description: '' }, 'invalid_input', ['/description']],
    [{ code: 'c', name: 'x', description: 'd'.repeat(2001) }, 'invalid_input', ['/description']],
    [{ code: 'c', name: 'x', kind: 'rental' }, 'invalid_input', ['/kind']],
    [{ code: 'c', name: 'x', unit: 'pcs' }, 'invalid_input', ['/unit']],
    [{ code: 'c', name: 'x', unit: 'STK' }, 'invalid_input', ['/unit']],
    [{ code: 'c', name: 'x', unit_price_minor: -1 }, 'invalid_amount', ['/unit_price_minor']],
    [{ code: 'c', name: 'x', unit_price_minor: 1.5 }, 'invalid_amount', ['/unit_price_minor']],
    [{ code: 'c', name: 'x', unit_price_minor: '100' }, 'invalid_amount', ['/unit_price_minor']],
    [{ code: 'c', name: 'x', unit_price_minor: 100000000000000 }, 'invalid_amount', ['/unit_price_minor']],
    [{ code: 'c', name: 'x', unit_price_minor: true }, 'invalid_amount', ['/unit_price_minor']],
    [{ code: 'c', unit_price_minor: -1 }, 'invalid_input', ['/name', '/unit_price_minor']],
    [{ code: 'c', name: 'x', colour: 'red' }, 'invalid_input', ['/colour']],
  ])('validates %j → %s at %j', async (body, expected, pointers) => {
    const unique = { ...body } as Record<string, unknown>;
    if (expected === null) unique.code = `${'😀'.repeat(34)}${randomUUID().slice(0, 2)}`; // still ≤ 70 code points, unique
    const res = await post(unique);
    if (expected === null) {
      expect(res.status).toBe(201);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(expected);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([...pointers].sort());
  });

  it('refuses text PostgreSQL cannot store as given (NUL, unpaired surrogates) with 400, never a 500 or a silent change', async () => {
    for (const [field, value] of [
      ['name', 'a\u0000b'],
      ['code', 'x\ud800'],
      ['description', '\udc00y'],
    ]) {
      const body: Record<string, string> = { code: code(), name: 'n', [field]: value };
      // JSON.stringify writes NUL and unpaired surrogates as \u escapes, as a client's JSON would
      const res = await app
        .partner()
        .post(`${SANDBOX}/products`)
        .set('Authorization', `Bearer ${project.token}`)
        .set('Idempotency-Key', randomUUID())
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([`/${field}`]);
    }
    expect((await post({ code: code(), name: 'emoji 😀 and æøå' })).status).toBe(201);
  });

  it('accepts unit_price_minor 0 (free) and the maximum, and null as no price', async () => {
    for (const price of [0, 99999999999999, null]) {
      const res = await post({ code: code(), name: 'p', unit_price_minor: price });
      expect(res.status).toBe(201);
      const [row] = await db.query(`SELECT unit_price_minor FROM products WHERE id = $1`, [res.body.id]);
      expect(row.unit_price_minor).toBe(price === null ? null : String(price));
    }
  });

  it('refuses __proto__ and constructor as unknown fields', async () => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/products`)
      .set('Authorization', `Bearer ${project.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/json')
      .send(`{"code":"${code()}","name":"x","__proto__":{"admin":true},"constructor":1}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/__proto__', '/constructor']);
  });

  describe('Idempotency-Key header', () => {
    it('is required: 400 idempotency_key_required', async () => {
      const res = await post({ code: code(), name: 'x' }, null);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('idempotency_key_required');
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['a space', 'a b'],
      ['non-ASCII', 'nøgle'],
    ])('refuses %s with 400 invalid_idempotency_key', async (_name, key) => {
      const res = await post({ code: code(), name: 'x' }, key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_idempotency_key');
    });

    it('accepts 255 visible ASCII characters', async () => {
      const key = `${randomUUID()}${'~'.repeat(255 - 36)}`;
      expect((await post({ code: code(), name: 'x' }, key)).status).toBe(201);
    });

    it('is checked after the token and before the input', async () => {
      const noToken = await app.partner().post(`${SANDBOX}/products`).send({ bad: true });
      expect(noToken.status).toBe(401);
      const badBodyNoKey = await post({ bad: true }, null);
      expect(badBodyNoKey.body.code).toBe('idempotency_key_required');
    });
  });

  describe('concurrency (settled by the database)', () => {
    it('20 concurrent identical requests → all 201, one id, exactly one first execution, one row', async () => {
      const key = randomUUID();
      const body = { code: code(), name: 'Samtidig' };
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(body, key)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(new Set(answers.map((a) => a.body.operation_id)).size).toBe(1);
      expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
      expect(await productsWithCode(body.code)).toBe(1);
    });

    it('20 concurrent requests with different keys and one code → one 201, 19 resource_conflict', async () => {
      const c = code();
      const answers = await Promise.all(Array.from({ length: 20 }, () => post({ code: c, name: 'Kamp' })));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409 && a.body.code === 'resource_conflict')).toHaveLength(19);
      expect(await productsWithCode(c)).toBe(1);
    });
  });

  it('a response lost after commit: repeating the request gets the replay', async () => {
    const key = randomUUID();
    const body = { code: code(), name: 'Tabt svar' };
    await post(body, key); // the client never reads this answer
    const retry = await post(body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(true);
    expect(await productsWithCode(body.code)).toBe(1);
  });

  it('scopes a key to its project: the same key string in two sandbox projects gives two products', async () => {
    const other = await aSandboxProject(app, 'Other');
    const key = `shared-${randomUUID()}`;
    const c = code();
    const a = await post({ code: c, name: 'x' }, key);
    const b = await post({ code: c, name: 'x' }, key, other.token);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.replayed).toBe(false);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('keeps replaying after a new sandbox generation (the app stays the same)', async () => {
    const own = await aSandboxProject(app, 'Generations');
    const key = randomUUID();
    const body = { code: code(), name: 'x' };
    const first = await post(body, key, own.token);
    const gen = await consolePost(app, `/sandbox/projects/${own.project_id}/generations`);
    expect(gen.status).toBe(201);
    const again = await post(body, key, gen.body.token);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, replayed: true });
  });

  it('stores a receipt (kind product.create) and exactly one outbox event per product', async () => {
    const res = await post({ code: code(), name: 'Kvittering' });
    const receipt = await app.partner().get(`${SANDBOX}/operations/${res.body.operation_id}`).set('Authorization', `Bearer ${project.token}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toEqual({
      operation_id: res.body.operation_id,
      kind: 'product.create',
      status: 'completed',
      resource: { type: 'product', id: res.body.id },
      completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      environment: 'sandbox',
    });
    const events = await db.query(`SELECT body FROM webhook_outbox WHERE body LIKE $1`, [`%${res.body.operation_id}%`]);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].body)).toEqual({ type: 'operation.completed', timestamp: receipt.body.completed_at, data: receipt.body });
  });

  describe('production', () => {
    it('answers environment "production" on the production base', async () => {
      const access = await aProductionAccess(app);
      const res = await post({ code: code(), name: 'Prod' }, randomUUID(), access.token, PRODUCTION);
      expect(res.status).toBe(201);
      expect(res.body.environment).toBe('production');
    });

    it('answers 409 idempotency_grant_changed after a superseding grant, whatever the payload', async () => {
      const access = await aProductionAccess(app);
      const key = randomUUID();
      const body = { code: code(), name: 'Grant' };
      expect((await post(body, key, access.token, PRODUCTION)).status).toBe(201);
      // the owner signs a new grant (next TOTP step: the current one is used up)
      const owner = access.owner;
      const grant = await consolePost(app, `/organizations/${access.organization.id}/grants`, {
        app_id: access.app.id,
        owner_user_id: owner.user_id,
        totp_code: codeOf(owner, Date.now() + 30_000),
        account_ids: access.grantedAccountIds,
        scopes: ['products:create'],
      });
      expect(grant.status).toBe(201);
      const token = await aToken(app, grant.body.id);
      const same = await post(body, key, token, PRODUCTION);
      expect(same.status).toBe(409);
      expect(same.body.code).toBe('idempotency_grant_changed');
      const changed = await post({ ...body, name: 'other' }, key, token, PRODUCTION);
      expect(changed.body.code).toBe('idempotency_grant_changed');
      expect(await productsWithCode(body.code)).toBe(1);
      void anOwner;
    });
  });

  it('purges idempotency records older than the retention, and only those', async () => {
    const key = randomUUID();
    expect((await post({ code: code(), name: 'old' }, key)).status).toBe(201);
    await db.query(`UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE idempotency_key = $1`, [key]);
    const fresh = randomUUID();
    expect((await post({ code: code(), name: 'new' }, fresh)).status).toBe(201);
    const purged = await app.apps.partner.get(IdempotencyService).purgeExpired();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await recordsWithKey(key)).toBe(0);
    expect(await recordsWithKey(fresh)).toBe(1);
  });

  it('purges every expired record, also more than one batch of 1,000 (it stopped after the first)', async () => {
    const key = randomUUID();
    expect((await post({ code: code(), name: 'template' }, key)).status).toBe(201);
    // 2,500 expired copies of the record under other keys: 3 batches
    await db.query(
      `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response, created_at)
       SELECT organization_id, environment, app_id, 'expired-' || g, operation, fingerprint, grant_id, response, now() - interval '25 hours'
         FROM idempotency_records, generate_series(1, 2500) AS g WHERE idempotency_key = $1`,
      [key],
    );
    const purged = await app.apps.partner.get(IdempotencyService).purgeExpired();
    expect(purged).toBeGreaterThanOrEqual(2500);
    const [left] = await db.query(`SELECT count(*)::int AS n FROM idempotency_records WHERE idempotency_key LIKE 'expired-%'`);
    expect(left.n).toBe(0);
    expect(await recordsWithKey(key)).toBe(1);
  });

  // issue 25: on 2 M records, a purge statement planned as a sequential scan read the whole table (830 MB,
  // 730 ms) for its last, empty batch of every run, and for every batch while old rows were few and scattered
  itOnPostgres('finds expired records through the created_at index, never by scanning the table', async () => {
    const key = randomUUID();
    expect((await post({ code: code(), name: 'template' }, key)).status).toBe(201);
    // statistics that make a scan look cheap: 40 % of 50,000 records expired
    await db.query(
      `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response, created_at)
       SELECT organization_id, environment, app_id, 'plan-' || g, operation, fingerprint, grant_id, response,
              now() - CASE WHEN g % 5 < 2 THEN interval '30 hours' ELSE interval '1 hour' END
         FROM idempotency_records, generate_series(1, 50000) AS g WHERE idempotency_key = $1`,
      [key],
    );
    try {
      await db.query('ANALYZE idempotency_records');
      const [plan] = await db.query(`EXPLAIN (FORMAT JSON) ${PURGE_SQL}`, [new Date(Date.now() - 24 * 3_600_000), 1000]);
      const scans: string[] = [];
      const walk = (node: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: unknown[] }) => {
        if (node['Relation Name'] === 'idempotency_records') scans.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
        for (const child of node.Plans ?? []) walk(child as typeof node);
      };
      walk(plan['QUERY PLAN'][0].Plan);
      expect(scans).toContain('Index Scan idempotency_records_created_at_idx');
      expect(scans.filter((s) => s.startsWith('Seq Scan'))).toEqual([]);
    } finally {
      await db.query(`DELETE FROM idempotency_records WHERE idempotency_key LIKE 'plan-%'`);
    }
  });
});

describe('scopes per route (CONTRACT §8)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('stops each write and the receipt lookup without its scope: 403 insufficient_scope naming it', async () => {
    const access = await aProductionAccess(app, { scopes: ['journal:prepare'] });
    const auth = { Authorization: `Bearer ${access.token}` };
    const journal = {
      posting_date: '2026-11-20',
      lines: [
        { account_id: access.grantedAccountIds[0], debit_minor: 1 },
        { account_id: access.grantedAccountIds[1], credit_minor: 1 },
      ],
    };
    const calls: Array<[string, () => Promise<import('supertest').Response>]> = [
      ['products:create', () => app.partner().post(`${PRODUCTION}/products`).set(auth).set('Idempotency-Key', randomUUID()).send({ code: 'c', name: 'n' })],
      ['journal:post', () => app.partner().post(`${PRODUCTION}/journal`).set(auth).set('Idempotency-Key', randomUUID()).send(journal)],
      ['operations:read', () => app.partner().get(`${PRODUCTION}/operations/${randomUUID()}`).set(auth)],
    ];
    for (const [scope, call] of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(res.headers['www-authenticate']).toBe(`Bearer realm="partner-api", error="insufficient_scope", scope="${scope}"`);
    }
    expect((await app.partner().post(`${PRODUCTION}/journal/prepare`).set(auth).send(journal)).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, codeOf, consolePost } from '../support/production-fixtures';
import { createTestApp, describeOnPostgres, onPostgres, type TestApp } from '../support/test-app';
import { untilBlockedOnLock } from '../support/wait';

describe('POST /journal — final posting (CONTRACT §7), periods, receipts', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const ids = (p: SandboxProject) => p.accounts.map((a) => a.id);
  const post = (p: SandboxProject, body: unknown, key: string | null = randomUUID()) => {
    let req = app.partner().post(`${SANDBOX}/journal`).set('Authorization', `Bearer ${p.token}`);
    if (key !== null) req = req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const prepare = (p: SandboxProject, body: unknown) =>
    app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${p.token}`)
      .send(body as object);
  const receipt = (p: SandboxProject, operationId: string) =>
    app.partner().get(`${SANDBOX}/operations/${operationId}`).set('Authorization', `Bearer ${p.token}`);

  it('posts: 201 with exactly id, posted, voucher_number, operation_id, replayed false, environment; the next gets 2', async () => {
    const p = await aSandboxProject(app);
    const first = await post(p, aJournal(ids(p)));
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(['environment', 'id', 'operation_id', 'posted', 'replayed', 'voucher_number']);
    expect(first.body).toMatchObject({ posted: true, voucher_number: 1, replayed: false, environment: 'sandbox' });
    const second = await post(p, aJournal(ids(p)));
    expect(second.body.voucher_number).toBe(2);
  });

  it('stores the entry with its normalized lines', async () => {
    const p = await aSandboxProject(app);
    const body = {
      posting_date: '2026-03-31',
      description: 'Husleje marts',
      lines: [
        {
          account_id: p.accounts[3].id.toUpperCase(),
          debit_minor: 1250000,
          tax_code_id: p.tax_codes[0].id,
          line_text: 'Leje',
          dimension_refs: [{ dept: 'A' }],
        },
        { account_id: p.accounts[5].id, credit_minor: 1250000 },
      ],
    };
    const res = await post(p, body);
    expect(res.status).toBe(201);
    const [entry] = await db.query(`SELECT posting_date, description, currency, voucher_year FROM journal_entries WHERE id = $1`, [res.body.id]);
    expect(entry).toEqual({ posting_date: '2026-03-31', description: 'Husleje marts', currency: 'DKK', voucher_year: 2026 });
    const lines = await db.query(
      `SELECT line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text FROM journal_lines WHERE entry_id = $1 ORDER BY line_no`,
      [res.body.id],
    );
    expect(lines).toEqual([
      {
        line_no: 1,
        account_id: p.accounts[3].id,
        debit_minor: '1250000',
        credit_minor: '0',
        tax_code_id: p.tax_codes[0].id,
        dimension_refs: [{ dept: 'A' }],
        line_text: 'Leje',
      },
      { line_no: 2, account_id: p.accounts[5].id, debit_minor: '0', credit_minor: '1250000', tax_code_id: null, dimension_refs: [], line_text: null },
    ]);
  });

  it('numbers vouchers per calendar year of posting_date', async () => {
    const p = await aSandboxProject(app);
    expect((await post(p, aJournal(ids(p), { posting_date: '2025-12-31' }))).body.voucher_number).toBe(1);
    expect((await post(p, aJournal(ids(p), { posting_date: '2026-01-01' }))).body.voucher_number).toBe(1);
    expect((await post(p, aJournal(ids(p), { posting_date: '2025-06-01' }))).body.voucher_number).toBe(2);
  });

  it('gives 10 concurrent postings exactly the numbers 1…10', async () => {
    const p = await aSandboxProject(app);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(p, aJournal(ids(p)))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(answers.map((a) => a.body.voucher_number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('numbers concurrent postings gaplessly when some of them share a key or go into a closed month (postings of one counter may share a transaction)', async () => {
    const p = await aSandboxProject(app);
    expect((await consolePost(app, `/organizations/${p.organization_id}/periods/2026-01/close`)).status).toBe(200);
    const key = randomUUID();
    const shared = aJournal(ids(p), { posting_date: '2026-11-02' });
    const sends = [
      ...Array.from({ length: 7 }, () => post(p, aJournal(ids(p), { posting_date: '2026-11-01' }))),
      post(p, shared, key),
      post(p, shared, key),
      post(p, shared, key),
      post(p, aJournal(ids(p), { posting_date: '2026-01-15' })),
      post(p, aJournal(ids(p), { posting_date: '2026-01-16' })),
    ];
    // interleaved, so that refusals and repeated keys sit between the others
    const order = [0, 7, 10, 1, 8, 2, 11, 3, 9, 4, 5, 6];
    const answers = await Promise.all(order.map((i) => sends[i]));
    const byIndex = order.map((_, at) => answers[order.indexOf(at)]);
    expect(byIndex.map((a) => a.status)).toEqual([...Array(10).fill(201), 422, 422]);
    expect(byIndex.slice(10).map((a) => a.body.code)).toEqual(['period_locked', 'period_locked']);
    const keyed = byIndex.slice(7, 10);
    expect(keyed.filter((a) => a.body.replayed === false)).toHaveLength(1);
    expect(new Set(keyed.map((a) => a.body.voucher_number)).size).toBe(1);
    const numbers = [...byIndex.slice(0, 7), keyed[0]].map((a) => a.body.voucher_number).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const stored = await db.query(`SELECT voucher_number FROM journal_entries WHERE organization_id = $1 ORDER BY voucher_number`, [p.organization_id]);
    expect(stored.map((r: { voucher_number: number }) => r.voucher_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('replays with the same voucher number and consumes no number', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const body = aJournal(ids(p));
    const first = await post(p, body, key);
    const again = await post(p, body, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      id: first.body.id,
      posted: true,
      voucher_number: first.body.voucher_number,
      operation_id: first.body.operation_id,
      replayed: true,
    });
    expect((await post(p, aJournal(ids(p)))).body.voucher_number).toBe(first.body.voucher_number + 1);
  });

  it('a rejected posting consumes no number and stores nothing', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app);
    const foreign = {
      posting_date: '2026-11-20',
      lines: [
        { account_id: other.accounts[0].id, debit_minor: 5 },
        { account_id: p.accounts[0].id, credit_minor: 5 },
      ],
    };
    const key = randomUUID();
    const rejected = await post(p, foreign, key);
    expect(rejected.status).toBe(422);
    expect(rejected.body.code).toBe('reference_not_allowed');
    expect(rejected.body.errors).toEqual([{ pointer: '/lines/0/account_id', code: 'reference_not_allowed', detail: expect.any(String) }]);
    const unbalanced = await post(p, {
      posting_date: '2026-11-20',
      lines: [
        { account_id: p.accounts[0].id, debit_minor: 5 },
        { account_id: p.accounts[1].id, credit_minor: 4 },
      ],
    });
    expect(unbalanced.body.code).toBe('journal_unbalanced');
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM journal_entries WHERE organization_id = $1`, [p.organization_id]);
    expect(n).toBe(0);
    const ok = await post(p, aJournal(ids(p)), key); // the key was not used up by the rejection
    expect(ok.status).toBe(201);
    expect(ok.body.voucher_number).toBe(1);
  });

  it('stores free-form dimension_refs up to the nesting bound, and answers deeper ones with 400, never a 500', async () => {
    const p = await aSandboxProject(app);
    const body = (depth: number) =>
      `{"posting_date":"2026-11-20","lines":[{"account_id":"${p.accounts[0].id}","debit_minor":5,"dimension_refs":[${'['.repeat(depth)}${']'.repeat(depth)}]},{"account_id":"${p.accounts[1].id}","credit_minor":5}]}`;
    const send = (depth: number) =>
      app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .set('Content-Type', 'application/json')
        .send(body(depth));
    expect((await send(256)).status).toBe(201);
    const deep = await send(20_000);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].pointer).toBe('/lines/0/dimension_refs');
  });

  it('refuses NUL and unpaired surrogates in texts and free-form items with 400, never a 500', async () => {
    const p = await aSandboxProject(app);
    const j = (extra: string, line0: string) =>
      `{"posting_date":"2026-11-20"${extra},"lines":[{"account_id":"${p.accounts[0].id}","debit_minor":5${line0}},{"account_id":"${p.accounts[1].id}","credit_minor":5}]}`;
    for (const [body, pointer] of [
      [j(',"description":"a\\u0000"', ''), '/description'],
      [j('', ',"line_text":"\\ud800"'), '/lines/0/line_text'],
      [j('', ',"dimension_refs":[{"k":"\\u0000"}]'), '/lines/0/dimension_refs'],
      [j('', ',"dimension_refs":[{"\\ud800":1}]'), '/lines/0/dimension_refs'],
    ]) {
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    }
  });

  it('requires the Idempotency-Key (after the token, before the input)', async () => {
    const p = await aSandboxProject(app);
    const res = await post(p, { nonsense: true }, null);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency_key_required');
  });

  it('answers 403 mandate_required without an active posting mandate, while prepare still works', async () => {
    const p = await aSandboxProject(app);
    const [mandate] = await db.query(`SELECT id FROM mandates WHERE organization_id = $1 AND revoked_at IS NULL`, [p.organization_id]);
    const revoked = await consolePost(app, `/mandates/${mandate.id}/revoke`);
    expect(revoked.status).toBe(200);
    const res = await post(p, aJournal(ids(p)));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('mandate_required');
    expect((await prepare(p, aJournal(ids(p)))).status).toBe(200);
  });

  it('production: 403 mandate_required until the owner gives a posting mandate, then posts within the grant', async () => {
    const access = await aProductionAccess(app);
    const body = {
      posting_date: '2026-11-20',
      lines: [
        { account_id: access.grantedAccountIds[0], debit_minor: 100 },
        { account_id: access.grantedAccountIds[1], credit_minor: 100 },
      ],
    };
    const postProd = () =>
      app.partner().post(`${PRODUCTION}/journal`).set('Authorization', `Bearer ${access.token}`).set('Idempotency-Key', randomUUID()).send(body);
    const before = await postProd();
    expect(before.status).toBe(403);
    expect(before.body.code).toBe('mandate_required');
    const mandate = await consolePost(app, `/organizations/${access.organization.id}/mandates`, {
      app_id: access.app.id,
      owner_user_id: access.owner.user_id,
      totp_code: codeOf(access.owner, Date.now() + 30_000),
    });
    expect(mandate.status).toBe(201);
    const after = await postProd();
    expect(after.status).toBe(201);
    expect(after.body).toMatchObject({ posted: true, voucher_number: 1, environment: 'production' });
    const outside = await app
      .partner()
      .post(`${PRODUCTION}/journal`)
      .set('Authorization', `Bearer ${access.token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ ...body, lines: [body.lines[0], { account_id: access.organization.accounts.at(-1)!.id, credit_minor: 100 }] });
    expect(outside.status).toBe(422);
    expect(outside.body.code).toBe('reference_not_allowed');
    expect((await consolePost(app, `/mandates/${mandate.body.id}/revoke`)).status).toBe(200);
    expect((await postProd()).body.code).toBe('mandate_required');
  });

  it('rejects a posting into a closed period with 422 period_locked, while prepare still answers 200', async () => {
    const p = await aSandboxProject(app);
    expect((await post(p, aJournal(ids(p), { posting_date: '2026-10-15' }))).status).toBe(201);
    const close = await consolePost(app, `/organizations/${p.organization_id}/periods/2026-10/close`);
    expect(close.status).toBe(200);
    expect(close.body).toEqual({ period: '2026-10', closed: true });
    const key = randomUUID();
    const locked = await post(p, aJournal(ids(p), { posting_date: '2026-10-31' }), key);
    expect(locked.status).toBe(422);
    expect(locked.body.code).toBe('period_locked');
    expect((await prepare(p, aJournal(ids(p), { posting_date: '2026-10-31' }))).status).toBe(200);
    const next = await post(p, aJournal(ids(p), { posting_date: '2026-11-01' }), key);
    expect(next.status).toBe(201);
    expect(next.body.voucher_number).toBe(2); // the locked attempt consumed no number
    expect((await consolePost(app, `/organizations/${p.organization_id}/periods/2026-10/close`)).status).toBe(200); // idempotent
  });

  it.each(['2026-13', '2026-1', 'nope'])('answers a close of period %s with 404', async (period) => {
    const p = await aSandboxProject(app);
    const res = await consolePost(app, `/organizations/${p.organization_id}/periods/${period}/close`);
    expect(res.status).toBe(404);
  });

  it('answers a close for an unknown organization with 404', async () => {
    expect((await consolePost(app, `/organizations/${randomUUID()}/periods/2026-01/close`)).status).toBe(404);
  });

  it('never lets a posting commit into a month after its close (close racing postings)', async () => {
    const p = await aSandboxProject(app);
    const month = '2026-07';
    const postings = Array.from({ length: 12 }, (_, i) => post(p, aJournal(ids(p), { posting_date: `${month}-${String(i + 1).padStart(2, '0')}` })));
    const close = consolePost(app, `/organizations/${p.organization_id}/periods/${month}/close`);
    const [closed, ...answers] = await Promise.all([close, ...postings]);
    expect(closed.status).toBe(200);
    for (const a of answers) expect([201, 422]).toContain(a.status);
    const [period] = await db.query(`SELECT closed_at FROM periods WHERE organization_id = $1 AND period = $2`, [p.organization_id, month]);
    const late = await db.query(
      `SELECT count(*)::int AS n FROM journal_entries WHERE organization_id = $1 AND to_char(posting_date, 'YYYY-MM') = $2 AND created_at > $3`,
      [p.organization_id, month, period.closed_at],
    );
    expect(late[0].n).toBe(0);
    const after = await post(p, aJournal(ids(p), { posting_date: `${month}-20` }));
    expect(after.body.code).toBe('period_locked');
    const numbers = answers
      .filter((a) => a.status === 201)
      .map((a) => a.body.voucher_number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1)); // gapless whatever was rejected
  });

  it('numbers vouchers per organization: each organization starts at 1', async () => {
    const a = await aSandboxProject(app);
    const b = await aSandboxProject(app);
    expect((await post(a, aJournal(ids(a)))).body.voucher_number).toBe(1);
    expect((await post(a, aJournal(ids(a)))).body.voucher_number).toBe(2);
    expect((await post(b, aJournal(ids(b)))).body.voucher_number).toBe(1);
    const [{ numbers }] = await db.query(
      `SELECT array_agg(voucher_number ORDER BY voucher_number) AS numbers FROM journal_entries WHERE organization_id = $1`,
      [a.organization_id],
    );
    expect(numbers).toEqual([1, 2]);
  });

  it('checks the mandate before the Idempotency-Key and the input (CONTRACT §3 step 3)', async () => {
    const p = await aSandboxProject(app);
    await db.query(`UPDATE mandates SET revoked_at = now() WHERE organization_id = $1 AND revoked_at IS NULL`, [p.organization_id]);
    for (const [body, key] of [
      [{ nonsense: true }, null],
      [{ nonsense: true }, ''],
      [aJournal(ids(p)), randomUUID()],
    ] as const) {
      const res = await post(p, body, key);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('mandate_required');
    }
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM voucher_counters WHERE organization_id = $1`, [p.organization_id]);
    expect(n).toBe(0);
  });

  it('judges the period lock last: replay, key reuse, balance and references come first (CONTRACT §3 steps 6–8)', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app);
    const key = randomUUID();
    const body = aJournal(ids(p), { posting_date: '2026-04-10' });
    const first = await post(p, body, key);
    expect(first.status).toBe(201);
    expect((await consolePost(app, `/organizations/${p.organization_id}/periods/2026-04/close`)).status).toBe(200);

    const replay = await post(p, body, key);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ id: first.body.id, posted: true, voucher_number: 1, operation_id: first.body.operation_id, replayed: true });
    const reused = await post(p, aJournal(ids(p), { posting_date: '2026-04-11' }), key);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    const unbalanced = await post(p, {
      posting_date: '2026-04-12',
      lines: [
        { account_id: ids(p)[0], debit_minor: 2 },
        { account_id: ids(p)[1], credit_minor: 1 },
      ],
    });
    expect(unbalanced.body.code).toBe('journal_unbalanced');
    const foreign = await post(p, {
      posting_date: '2026-04-12',
      lines: [
        { account_id: ids(p)[0], debit_minor: 1 },
        { account_id: other.accounts[1].id, credit_minor: 1 },
      ],
    });
    expect(foreign.body.code).toBe('reference_not_allowed');
    const locked = await post(p, aJournal(ids(p), { posting_date: '2026-04-12' }));
    expect(locked.status).toBe(422);
    expect(locked.body.code).toBe('period_locked');
    expect(locked.body.errors).toBeUndefined();
  });

  it('locks a month closed before any posting into it, and only that month of that organization', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app);
    expect((await consolePost(app, `/organizations/${p.organization_id.toUpperCase()}/periods/2026-05/close`)).body).toEqual({
      period: '2026-05',
      closed: true,
    });
    for (const date of ['2026-05-01', '2026-05-31']) {
      const res = await post(p, aJournal(ids(p), { posting_date: date }));
      expect({ date, status: res.status, code: res.body.code }).toEqual({ date, status: 422, code: 'period_locked' });
    }
    expect((await post(p, aJournal(ids(p), { posting_date: '2026-04-30' }))).body.voucher_number).toBe(1);
    expect((await post(p, aJournal(ids(p), { posting_date: '2026-06-01' }))).body.voucher_number).toBe(2);
    expect((await post(p, aJournal(ids(p), { posting_date: '2025-05-15' }))).body.voucher_number).toBe(1); // same month, another year
    expect((await post(other, aJournal(ids(other), { posting_date: '2026-05-15' }))).status).toBe(201);
  });

  it('answers every posting sent after the close has answered with 422 period_locked (concurrent ones too)', async () => {
    const p = await aSandboxProject(app);
    const month = '2026-08';
    const before = await Promise.all(Array.from({ length: 5 }, (_, i) => post(p, aJournal(ids(p), { posting_date: `${month}-0${i + 1}` }))));
    expect(before.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect((await consolePost(app, `/organizations/${p.organization_id}/periods/${month}/close`)).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 8 }, (_, i) => post(p, aJournal(ids(p), { posting_date: `${month}-1${i}` }))));
    expect(after.map((r) => r.body.code)).toEqual(Array(8).fill('period_locked'));
    expect((await post(p, aJournal(ids(p), { posting_date: '2026-09-01' }))).body.voucher_number).toBe(6);
  });

  describeOnPostgres('the period row lock protocol (PostgreSQL sessions)', () => {
    let client: Client;
    beforeEach(async () => {
      client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
    });
    afterEach(() => client.end());

    const pending = <T>(promise: Promise<T>) => {
      const state = { settled: false, value: undefined as T | undefined };
      const done = promise.then((v) => {
        state.settled = true;
        state.value = v;
        return v;
      });
      return { state, done };
    };

    it('a close waits for a posting in flight in that month (which holds the period row FOR SHARE)', async () => {
      const p = await aSandboxProject(app);
      expect((await post(p, aJournal(ids(p), { posting_date: '2026-02-02' }))).status).toBe(201); // the period row exists
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM periods WHERE organization_id = $1 AND period = '2026-02' FOR SHARE`, [p.organization_id]);
      const close = pending(consolePost(app, `/organizations/${p.organization_id}/periods/2026-02/close`).then((r) => r));
      await untilBlockedOnLock(client);
      expect(close.state.settled).toBe(false);
      const heldUntil = Date.now();
      await client.query('COMMIT');
      const res = await close.done;
      expect(res.status).toBe(200);
      const [{ closed_at }] = await db.query(`SELECT closed_at FROM periods WHERE organization_id = $1 AND period = '2026-02'`, [p.organization_id]);
      expect(new Date(closed_at).getTime()).toBeGreaterThanOrEqual(heldUntil - 50); // stamped after the wait
    });

    it('a posting waits for a close in flight and then gets period_locked; after a rolled-back close it posts', async () => {
      const p = await aSandboxProject(app);
      // 2026-03 has its period row already (the close UPDATEs it); 2026-01 has none (the close INSERTs it)
      expect((await post(p, aJournal(ids(p), { posting_date: '2026-03-01' }))).status).toBe(201);
      for (const [end, expected] of [
        ['COMMIT', 'period_locked'],
        ['ROLLBACK', undefined],
      ] as const) {
        const month = end === 'COMMIT' ? '2026-03' : '2026-01';
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO periods (organization_id, period, closed_at) VALUES ($1, $2, clock_timestamp())
           ON CONFLICT (organization_id, period) DO UPDATE SET closed_at = clock_timestamp()`,
          [p.organization_id, month],
        );
        const posting = pending(post(p, aJournal(ids(p), { posting_date: `${month}-15` })).then((r) => r));
        await untilBlockedOnLock(client);
        expect(posting.state.settled).toBe(false);
        await client.query(end);
        const res = await posting.done;
        expect({ end, code: res.body.code }).toEqual({ end, code: expected });
      }
      const [{ numbers }] = await db.query(
        `SELECT array_agg(voucher_number ORDER BY voucher_number) AS numbers FROM journal_entries WHERE organization_id = $1`,
        [p.organization_id],
      );
      expect(numbers).toEqual([1, 2]);
    });
  });

  describe('receipt lookup GET /operations/{id}', () => {
    it('finds the receipt of a journal entry', async () => {
      const p = await aSandboxProject(app);
      const res = await post(p, aJournal(ids(p)));
      const r = await receipt(p, res.body.operation_id);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        operation_id: res.body.operation_id,
        kind: 'journal.post',
        status: 'completed',
        resource: { type: 'journal_entry', id: res.body.id },
        completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        environment: 'sandbox',
      });
      expect((await receipt(p, res.body.operation_id.toUpperCase())).status).toBe(200);
    });

    it('answers 404 not_found alike for another project’s operation, a random uuid and a non-uuid', async () => {
      const p = await aSandboxProject(app);
      const other = await aSandboxProject(app);
      const theirs = await post(other, aJournal(ids(other)));
      const bodies = [];
      for (const id of [theirs.body.operation_id, randomUUID(), 'not-a-uuid']) {
        const r = await receipt(p, id);
        expect(r.status).toBe(404);
        expect(r.body.code).toBe('not_found');
        bodies.push({ ...r.body, request_id: undefined });
      }
      expect(bodies[0]).toEqual(bodies[1]);
      expect(bodies[1]).toEqual(bodies[2]);
    });

    it('stores no receipt, no voucher number and no event for a prepare', async () => {
      const p = await aSandboxProject(app);
      const before = await db.query(
        `SELECT (SELECT count(*) FROM operation_receipts) AS r, (SELECT count(*) FROM webhook_outbox) AS o, (SELECT count(*) FROM voucher_counters) AS v`,
      );
      expect((await prepare(p, aJournal(ids(p)))).status).toBe(200);
      const after = await db.query(
        `SELECT (SELECT count(*) FROM operation_receipts) AS r, (SELECT count(*) FROM webhook_outbox) AS o, (SELECT count(*) FROM voucher_counters) AS v`,
      );
      expect(after).toEqual(before);
    });
  });
});

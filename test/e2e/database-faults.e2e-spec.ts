import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { OrganizationRepository } from '../../src/modules/auth/organizations/domain/organization.repository';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, describeNothing, onPostgres, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/**
 * CONTRACT §3: a fault of the database is never a 500. A connection lost between two statements of a
 * transaction, or before its COMMIT, is 503 service_unavailable with Retry-After and commits nothing; a
 * lock wait on anything but the idempotency record of the same key that runs out is 503, never 409
 * idempotency_request_in_progress (§6). Needs real PostgreSQL sessions: PGlite runs declare nothing.
 */
if (!onPostgres()) {
  describe('database faults answer 503 (PostgreSQL sessions)', () => {
    it('runs in the PostgreSQL pass (TEST_DATABASE_URL is not set here)', () => {
      expect(process.env.TEST_DATABASE_URL).toBeUndefined();
    });
  });
}

(onPostgres() ? describe : describeNothing)('database faults answer 503, commit nothing, and a retry succeeds', () => {
  let app: TestApp;
  let db: DataSource;
  let other: Client;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
    other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await app.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const createProduct = (p: SandboxProject, key: string, code: string) =>
    app.partner().post(`${SANDBOX}/products`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', key).send({ code, name: 'Fejl' });
  const productsWithCode = async (p: SandboxProject, code: string) =>
    Number((await db.query(`SELECT count(*)::int AS n FROM products WHERE organization_id = $1 AND code = $2`, [p.organization_id, code]))[0].n);
  const recordsWithKey = async (p: SandboxProject, key: string) =>
    Number(
      (await db.query(`SELECT count(*)::int AS n FROM idempotency_records WHERE organization_id = $1 AND idempotency_key = $2`, [p.organization_id, key]))[0].n,
    );

  /** Terminates the backend of the transaction `m` from another session and waits until the client has seen it. */
  async function terminateOwnBackend(m: EntityManager): Promise<void> {
    const [{ pid }] = await m.query('SELECT pg_backend_pid() AS pid');
    const [{ ok }] = (await other.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows;
    expect(ok).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // the FATAL 57P01 reaches the driver: TypeORM releases the query runner
  }

  /**
   * Sends a one-statement write while another session holds the organization's row, waits until its
   * backend is blocked on that lock, terminates that backend, releases the row; the write's answer.
   */
  async function lostWhileWaitingOn<R>(organizationId: string, send: () => PromiseLike<R>): Promise<R> {
    // the scenario needs the write to reach its lock wait; on a loaded machine it was answered 503 before
    // (a connection the pool could not get in time: a 503 that wrote nothing, as the checks after it see),
    // so such a run is tried again, at most three times in all
    for (let attempt = 1; ; attempt++) {
      try {
        return await lostOnceWhileWaitingOn(organizationId, send);
      } catch (err) {
        if (attempt >= 3 || !(err instanceof NeverWaited) || err.status !== 503) throw err;
      }
    }
  }

  class NeverWaited extends Error {
    constructor(
      message: string,
      readonly status: number | undefined,
    ) {
      super(message);
    }
  }

  async function lostOnceWhileWaitingOn<R>(organizationId: string, send: () => PromiseLike<R>): Promise<R> {
    await other.query('BEGIN');
    try {
      await other.query(`SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE`, [organizationId]);
      const pending = Promise.resolve(send());
      let answered: unknown;
      void pending.then(
        (r) => {
          answered = r;
        },
        (err: unknown) => {
          answered = err;
        },
      );
      const deadline = Date.now() + 15_000;
      let blocked: number | undefined;
      while (blocked === undefined) {
        const { rows } = await other.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pg_backend_pid() = ANY (pg_blocking_pids(pid))`,
        );
        blocked = rows[0]?.pid;
        if (blocked === undefined) {
          if (answered !== undefined || Date.now() > deadline) {
            const what =
              answered === undefined
                ? 'no answer within 15 s'
                : `answered ${JSON.stringify((answered as { status?: number; body?: unknown }).status ?? String(answered))} ${JSON.stringify((answered as { body?: unknown }).body ?? '')}`;
            throw new NeverWaited(`the write never waited on the organization's row: ${what}`, (answered as { status?: number } | undefined)?.status);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      expect((await other.query('SELECT pg_terminate_backend($1) AS ok', [blocked])).rows[0].ok).toBe(true);
      await other.query('ROLLBACK');
      return await pending;
    } catch (err) {
      await other.query('ROLLBACK');
      throw err;
    }
  }

  function expect503(res: { status: number; body: { code?: string }; headers: Record<string, string> }) {
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(res.headers['content-type']).toContain('application/problem+json');
  }

  const postJournal = (p: SandboxProject, key: string, postingDate: string) =>
    app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', key)
      .send(
        aJournal(
          p.accounts.map((a) => a.id),
          { posting_date: postingDate },
        ),
      );
  const entriesOf = async (p: SandboxProject) =>
    Number((await db.query(`SELECT count(*)::int AS n FROM journal_entries WHERE organization_id = $1`, [p.organization_id]))[0].n);

  const taxCodesOf = async (organizationId: string, code: string) =>
    Number((await db.query(`SELECT count(*)::int AS n FROM tax_codes WHERE organization_id = $1 AND code = $2`, [organizationId, code]))[0].n);
  const createTaxCode = (organizationId: string, code: string) =>
    app
      .console()
      .post(`/console/v1/organizations/${organizationId}/tax-codes`)
      .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
      .send({ code, rate_basis_points: 2500 });

  it('a connection lost between two statements of a transaction (QueryRunnerAlreadyReleasedError) is 503; the retry commits once', async () => {
    const p = await aSandboxProject(app);
    const repo = app.apps.console!.get(OrganizationRepository);
    const create = repo.createTaxCode.bind(repo);
    // the organization's row is locked by the transaction's first statement; the second finds its backend gone
    jest.spyOn(repo, 'createTaxCode').mockImplementationOnce(async (m, organizationId, taxCode) => {
      await terminateOwnBackend(m as EntityManager);
      return create(m, organizationId, taxCode);
    });
    expect503(await createTaxCode(p.organization_id, 'LOST1'));
    expect(await taxCodesOf(p.organization_id, 'LOST1')).toBe(0);
    expect((await createTaxCode(p.organization_id, 'LOST1')).status).toBe(201);
    expect(await taxCodesOf(p.organization_id, 'LOST1')).toBe(1);
  });

  it('a connection lost after the last statement, at COMMIT, is 503 and commits nothing', async () => {
    const p = await aSandboxProject(app);
    const repo = app.apps.console!.get(OrganizationRepository);
    const create = repo.createTaxCode.bind(repo);
    jest.spyOn(repo, 'createTaxCode').mockImplementationOnce(async (m, organizationId, taxCode) => {
      const created = await create(m, organizationId, taxCode);
      await terminateOwnBackend(m as EntityManager);
      return created;
    });
    expect503(await createTaxCode(p.organization_id, 'LOST2'));
    expect(await taxCodesOf(p.organization_id, 'LOST2')).toBe(0);
    expect((await createTaxCode(p.organization_id, 'LOST2')).status).toBe(201);
  });

  it('a final posting (one statement, no transaction) whose connection is lost while it waits is 503, writes nothing and takes no number; the retry posts once', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    // the statement's gate waits for the organization row held here; then its backend goes
    expect503(await lostWhileWaitingOn(p.organization_id, () => postJournal(p, key, '2026-05-05')));
    expect(await entriesOf(p)).toBe(0);
    expect(await recordsWithKey(p, key)).toBe(0);
    const retry = await postJournal(p, key, '2026-05-05');
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(false);
    expect(retry.body.voucher_number).toBe(1); // gapless: the lost one took no number
    expect(await entriesOf(p)).toBe(1);
  });

  it('a batch (CONTRACT §19) whose connection is lost in the middle of its statement is 503, writes nothing and takes no number; the retry posts it once with the numbers nobody else took', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const journals = ['2026-05-05', '2025-05-05', '2026-05-06'].map((posting_date) =>
      aJournal(
        p.accounts.map((a) => a.id),
        { posting_date },
      ),
    );
    const postBatch = () =>
      app.partner().post(`${SANDBOX}/journal/batch`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', key).send({ journals });
    // the statement holds the years' counters and waits at its gate for the organization row held here; then its backend goes
    expect503(await lostWhileWaitingOn(p.organization_id, postBatch));
    expect(await entriesOf(p)).toBe(0);
    expect(await recordsWithKey(p, key)).toBe(0);
    const retry = await postBatch();
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(false);
    expect(retry.body.entries.map((e: { voucher_year: number; voucher_number: number }) => [e.voucher_year, e.voucher_number])).toEqual([
      [2026, 1],
      [2025, 1],
      [2026, 2],
    ]);
    expect((await postJournal(p, randomUUID(), '2026-05-07')).body.voucher_number).toBe(3);
    expect(await entriesOf(p)).toBe(4);
  });

  it('a product create (one statement, no transaction) whose connection is lost while it runs is 503, writes nothing, and the retry creates it once', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const code = `LOST-${randomUUID()}`;
    // the statement's foreign-key check waits for the organization row held here; then its backend goes
    expect503(await lostWhileWaitingOn(p.organization_id, () => createProduct(p, key, code)));
    expect(await productsWithCode(p, code)).toBe(0);
    expect(await recordsWithKey(p, key)).toBe(0);
    const retry = await createProduct(p, key, code);
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(false);
    expect(await productsWithCode(p, code)).toBe(1);
  });

  it('an attachment (CONTRACT §17) whose connection is lost while it waits is 503 and stores nothing; the retry with the same key stores it once', async () => {
    const p = await aSandboxProject(app);
    const posted = await postJournal(p, randomUUID(), '2026-06-06');
    expect(posted.status).toBe(201);
    const key = randomUUID();
    const pdf = Buffer.from(`%PDF-1.7 ${randomUUID()}`);
    const attach = () =>
      app
        .partner()
        .post(`${SANDBOX}/journal/entries/${posted.body.id}/attachments`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/pdf')
        .send(pdf);
    const attachments = async () => Number((await db.query(`SELECT count(*)::int AS n FROM attachments WHERE organization_id = $1`, [p.organization_id]))[0].n);
    // the new content row's foreign-key check waits for the organization row held here; then its backend goes
    expect503(await lostWhileWaitingOn(p.organization_id, attach));
    expect(await attachments()).toBe(0);
    expect(await recordsWithKey(p, key)).toBe(0);
    const retry = await attach();
    expect([retry.status, retry.body.replayed, retry.body.filename]).toEqual([201, false, `bilag-2026-${posted.body.voucher_number}-1.pdf`]);
    const again = await attach();
    expect([again.status, again.body.replayed, again.body.id]).toEqual([201, true, retry.body.id]);
    expect(await attachments()).toBe(1);
  });

  it('a posting with a fresh key that waits on the voucher counter held by a stalled transaction gets 503 after the lock timeout, never 409 in_progress', async () => {
    const p = await aSandboxProject(app);
    const ids = p.accounts.map((a) => a.id);
    const post = (key: string) =>
      app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', key)
        .send(aJournal(ids, { posting_date: '2026-03-02' }));
    expect((await post(randomUUID())).body.voucher_number).toBe(1);
    await other.query('BEGIN');
    try {
      // a stalled posting of another instance: it holds the counter of (organization, 2026)
      await other.query(`UPDATE voucher_counters SET last_number = last_number WHERE organization_id = $1 AND year = 2026`, [p.organization_id]);
      const started = Date.now();
      const res = await post(randomUUID());
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
      expect503(res);
    } finally {
      await other.query('ROLLBACK');
    }
    const next = await post(randomUUID());
    expect(next.status).toBe(201);
    expect(next.body.voucher_number).toBe(2); // gapless: the failed one took no number
  }, 180_000);

  it('a posting whose period row is held by another transaction gets 503 after the lock timeout, never 409 in_progress', async () => {
    const p = await aSandboxProject(app);
    const ids = p.accounts.map((a) => a.id);
    const post = (key: string) =>
      app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', key)
        .send(aJournal(ids, { posting_date: '2026-04-02' }));
    expect((await post(randomUUID())).status).toBe(201);
    expect(await db.query(`SELECT 1 FROM periods WHERE organization_id = $1 AND period = '2026-04'`, [p.organization_id])).toHaveLength(1);
    await other.query('BEGIN');
    try {
      // a period close in progress (the console's close takes the row exclusively)
      await other.query(`SELECT 1 FROM periods WHERE organization_id = $1 AND period = '2026-04' FOR UPDATE`, [p.organization_id]);
      const res = await post(randomUUID());
      expect503(res);
    } finally {
      await other.query('ROLLBACK');
    }
    expect((await post(randomUUID())).status).toBe(201);
  }, 180_000);
});

import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { JournalService } from '../../src/modules/journal/application/journal.service';
import { managerOf, Transactions } from '../../src/shared/database/transactions';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

describe('error model and transactions', () => {
  let app: TestApp;
  let project: SandboxProject;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestApp({ logLevel: 'info' }, { logStream });
    project = await aSandboxProject(app);
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers an unexpected exception with 500 internal_error that leaks nothing, and logs it with the request id', async () => {
    const secret = 'SELECT name FROM accounts WHERE secret_column = 1 /app/src/hidden.ts:42';
    jest.spyOn(JournalService.prototype, 'prepare').mockRejectedValueOnce(new Error(secret));
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${project.token}`)
      .set('X-Request-Id', 'req-500-test')
      .send(aJournal(project.accounts.map((a) => a.id)));
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'urn:partner-api:error:internal_error',
      title: 'Internal error',
      status: 500,
      code: 'internal_error',
      detail: 'An internal error occurred',
      request_id: 'req-500-test',
    });
    expect(res.text).not.toContain('SELECT');
    expect(res.text).not.toContain('hidden.ts');
    const logged = logLines.filter((l) => l.includes('req-500-test') && l.includes(secret));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('answers 503 service_unavailable with Retry-After when the database cannot be reached', async () => {
    const dataSource = app.apps.partner.get(DataSource);
    const query = dataSource.query.bind(dataSource);
    // only the readiness probe's statement fails: the webhook dispatcher polls through the same data source
    const spy = jest.spyOn(dataSource, 'query').mockImplementation((sql: string, ...rest: unknown[]) =>
      sql.includes('pg_is_in_recovery()') // the readiness probe's (it asks whether the host takes writes)
        ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
        : (query as (s: string, ...r: unknown[]) => Promise<unknown>)(sql, ...rest),
    );
    const res = await app.partner().get('/health/ready');
    spy.mockRestore();
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('never logs the Authorization header, the token or the body', async () => {
    const before = logLines.length;
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${project.token}`)
      .send({ ...aJournal(project.accounts.map((a) => a.id)), description: 'body-marker-xyz' });
    expect(res.status).toBe(200);
    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(0); // the request was logged…
    for (const line of lines) {
      expect(line).not.toContain(project.token); // …without the token
      expect(line).not.toContain('body-marker-xyz');
      expect(line.toLowerCase()).not.toContain('authorization');
    }
  });

  it('keeps the write of one of two overlapping transactions when the other fails', async () => {
    const transactions = app.apps.partner.get(Transactions);
    const dataSource = app.apps.partner.get(DataSource);
    const org = project.organization_id;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = transactions.run(async (m) => {
      await managerOf(m).query(`INSERT INTO periods (organization_id, period) VALUES ($1, '2001-01')`, [org]);
      await gate;
      throw new Error('fails after writing');
    });
    const succeeding = transactions.run(async (m) => {
      await managerOf(m).query(`INSERT INTO periods (organization_id, period) VALUES ($1, '2001-02')`, [org]);
    });
    release();
    await expect(failing).rejects.toThrow('fails after writing');
    await expect(succeeding).resolves.toBeUndefined();
    const rows: Array<{ period: string }> = await dataSource.query(
      `SELECT period FROM periods WHERE organization_id = $1 AND period LIKE '2001-%' ORDER BY period`,
      [org],
    );
    expect(rows.map((r) => r.period)).toEqual(['2001-02']);
  });
});

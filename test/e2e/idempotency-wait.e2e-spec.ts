import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { requestFingerprint } from '../../src/modules/idempotency/domain/fingerprint';
import { aSandboxProject, SANDBOX } from '../support/fixtures';
import { createTestApp, describeOnPostgres, type TestApp } from '../support/test-app';
import { untilBlockedOnLock } from '../support/wait';

/**
 * CONTRACT §6: an identical request arriving while the first is still running — on any instance —
 * waits for it (up to 10 s) and answers as a replay; past 10 s it gets 409
 * idempotency_request_in_progress. The "first request" here is a transaction held open on another
 * PostgreSQL session, exactly what another instance mid-request looks like to this one. On PGlite
 * (one process, one session) there is no other session to hold it: those runs check the same outcome
 * through concurrent requests in products.e2e-spec.ts.
 */
describeOnPostgres('waiting for an identical request in flight on another instance', () => {
  let app: TestApp;
  let other: Client;
  beforeAll(async () => {
    app = await createTestApp();
    other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await app.close();
  });

  const input = (code: string) => ({ code, name: 'Venter', description: null, kind: 'services', unit: 'stk', unit_price_minor: null });

  async function holdClaim(p: { organization_id: string; app_id: string }, key: string, code: string) {
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response)
       VALUES ($1, 'sandbox', $2, $3, 'product.create', $4, NULL, $5)`,
      [
        p.organization_id,
        p.app_id,
        key,
        requestFingerprint('product.create', input(code)),
        JSON.stringify({
          id: '11111111-1111-4111-8111-111111111111',
          created: true,
          operation_id: '22222222-2222-4222-8222-222222222222',
          replayed: false,
          environment: 'sandbox',
        }),
      ],
    );
  }

  it('waits for the first to commit, then answers as a replay', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const code = `WAIT-${randomUUID()}`;
    await holdClaim(p, key, code);
    const pending = app
      .partner()
      .post(`${SANDBOX}/products`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', key)
      .send({ code, name: 'Venter' })
      .then((r) => r);
    await untilBlockedOnLock(other); // the request waits on the held claim
    await other.query('COMMIT');
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: '11111111-1111-4111-8111-111111111111',
      created: true,
      operation_id: '22222222-2222-4222-8222-222222222222',
      replayed: true,
    });
  });

  it('runs itself when the first rolls back', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const code = `ROLLBACK-${randomUUID()}`;
    await holdClaim(p, key, code);
    const pending = app
      .partner()
      .post(`${SANDBOX}/products`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', key)
      .send({ code, name: 'Venter' })
      .then((r) => r);
    await untilBlockedOnLock(other);
    await other.query('ROLLBACK');
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.body.replayed).toBe(false);
  });

  it('answers 409 idempotency_request_in_progress after 10 s', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const code = `SLOW-${randomUUID()}`;
    await holdClaim(p, key, code);
    try {
      const started = Date.now();
      const res = await app
        .partner()
        .post(`${SANDBOX}/products`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', key)
        .send({ code, name: 'Venter' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('idempotency_request_in_progress');
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    } finally {
      await other.query('ROLLBACK');
    }
  }, 180_000);
});

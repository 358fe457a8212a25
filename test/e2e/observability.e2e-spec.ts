import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { WebhooksSql } from '../../src/modules/webhooks/sql';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { consolePost } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

/** Issue 15: request logs per listener with the caller's ids, and the Prometheus metrics. */
describe('logs and metrics', () => {
  let app: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) {
          raw.push(line);
          lines.push(JSON.parse(line));
        }
        done();
      },
    });
    app = await createTestApp({ logLevel: 'info' }, { logStream });
  });
  afterAll(() => app.close());

  const completed = (path: string) => lines.filter((l) => (l.req as { path?: string } | undefined)?.path === path && l.msg === 'request completed');

  it('logs no route mapping at info, and each request with its own listener', async () => {
    expect(raw.some((l) => /Mapped \{/.test(l))).toBe(false);
    const p = await aSandboxProject(app);
    expect(completed('/console/v1/sandbox/projects').map((l) => l.listener)).toEqual(['console']);
    const res = await app.partner().get('/health/live');
    expect(res.status).toBe(200);
    expect(completed('/health/live').map((l) => l.listener)).toEqual(['partner']);
    expect(raw.join('\n')).not.toContain(p.token); // the provisioning answer carried it; the log does not
  });

  it('binds organization, app, environment and operation ids to a request line after authentication', async () => {
    const p = await aSandboxProject(app);
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    const line = completed(`${SANDBOX}/journal`).find((l) => (l.req as { id: string }).id === res.headers['x-request-id']);
    expect(line).toMatchObject({
      listener: 'partner',
      organization_id: p.organization_id,
      app_id: p.app_id,
      environment: 'sandbox',
      operation_id: res.body.operation_id,
      res: { statusCode: 201 },
    });
    const unauthenticated = await app.partner().post(`${SANDBOX}/journal/prepare`).send({});
    expect(unauthenticated.status).toBe(401);
    const refused = completed(`${SANDBOX}/journal/prepare`).find((l) => (l.req as { id: string }).id === unauthenticated.headers['x-request-id']);
    expect(refused).toBeDefined();
    expect(refused).not.toHaveProperty('organization_id');
    expect(raw.join('\n')).not.toContain(p.token);
  });

  const metric = async (pattern: RegExp): Promise<number> => {
    const res = await app.console().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const line = res.text.split('\n').find((l) => pattern.test(l));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  it('serves Prometheus text on the console listener, without the console key', async () => {
    const route = `/${SANDBOX.slice(1)}/products`;
    const created = new RegExp(`^partner_http_requests_total\\{listener="partner",method="POST",route="${route}",status="201"\\} `);
    const replays = new RegExp(`^partner_idempotency_replays_total\\{route="${route}"\\} `);
    const conflicts = new RegExp(`^partner_idempotency_conflicts_total\\{route="${route}",code="idempotency_key_reused"\\} `);
    const before = { created: await metric(created), replays: await metric(replays), conflicts: await metric(conflicts) };

    const p = await aSandboxProject(app);
    const key = randomUUID();
    const create = (code: string) =>
      app.partner().post(`${SANDBOX}/products`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', key).send({ code, name: 'Målt' });
    expect((await create('M-1')).status).toBe(201);
    expect((await create('M-1')).body.replayed).toBe(true);
    expect((await create('M-2')).status).toBe(409);
    const lookup = await app.partner().get(`${SANDBOX}/operations/${randomUUID()}`).set('Authorization', `Bearer ${p.token}`);
    expect(lookup.status).toBe(404);

    expect(await metric(created)).toBe(before.created + 2);
    expect(await metric(replays)).toBe(before.replays + 1);
    expect(await metric(conflicts)).toBe(before.conflicts + 1);
    // the route template, never the raw path with its id
    expect(
      await metric(
        new RegExp(`^partner_http_requests_total\\{listener="partner",method="GET",route="/${SANDBOX.slice(1)}/operations/:operationId",status="404"\\} `),
      ),
    ).toBeGreaterThanOrEqual(1);
    const text = (await app.console().get('/metrics').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)).text;
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).toMatch(
      /^partner_http_request_duration_seconds_bucket\{le="\+Inf",listener="partner",method="POST",route="\/api\/partner\/sandbox\/v1\/products",status="201"\} \d+$/m,
    );
    expect(text).toMatch(/^partner_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(text).toMatch(/^partner_db_pool_waiting \d+$/m);
    expect(text).toMatch(/^partner_webhook_deliveries\{outcome="pending"\} \d+$/m);
    expect(text).toMatch(/^# TYPE partner_webhook_deliveries_finished_total counter$/m);
    expect(text).toMatch(/^partner_webhook_deliveries_finished_total\{outcome="delivered"\} \d+$/m);
    expect(text).toMatch(/^partner_webhook_deliveries_finished_total\{outcome="failed"\} \d+$/m);
    // CONTRACT §15: request-log entries dropped because the queue was full (none here)
    expect(text).toMatch(/^# TYPE partner_request_log_dropped_total counter$/m);
    expect(text).toMatch(/^partner_request_log_dropped_total 0$/m);
    expect(text).toMatch(/^partner_webhook_queue_age_seconds [0-9.e+-]+$/m);
    expect(text).toMatch(/^# TYPE partner_rate_limit_rejections_total counter$/m);
  });

  it('counts a delivered webhook in partner_webhook_deliveries_finished_total, and no longer counts history from the database (CONTRACT §16)', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const delivered = /^partner_webhook_deliveries_finished_total\{outcome="delivered"\} /;
      const failed = /^partner_webhook_deliveries_finished_total\{outcome="failed"\} /;
      const before = { delivered: await metric(delivered), failed: await metric(failed) };
      const p = await aSandboxProject(app);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(201);
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(p.accounts.map((a) => a.id)));
      expect(res.status).toBe(201);
      // the app's own dispatcher sends it; the counter moves when the outcome is recorded
      await eventually(async () => (await metric(delivered)) > before.delivered, 'the delivered counter to move');
      expect(received).toHaveLength(1);
      expect(await metric(delivered)).toBe(before.delivered + 1);
      expect(await metric(failed)).toBe(before.failed);
      const text = (await app.console().get('/metrics')).text;
      // the all-time counts read from the table on every scrape are gone
      expect(text).not.toMatch(/^partner_webhook_deliveries\{outcome="(delivered|failed)"\}/m);
      expect(text).toMatch(/^partner_webhook_deliveries\{outcome="pending"\} \d+$/m);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('reads the pending count through a pending partial index of webhook_deliveries (its cost follows the backlog, not the history)', async () => {
    const db = app.apps.partner.get(DataSource);
    // the plan the index makes possible (on a near-empty test table the planner may prefer a scan either way)
    const plan = await db.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      const rows: Array<Record<string, unknown>> = await m.query(`EXPLAIN (FORMAT JSON) ${WebhooksSql.pendingDeliveries}`);
      return JSON.stringify(rows[0]['QUERY PLAN']);
    });
    expect(plan).toMatch(/"Index Name":"webhook_deliveries_(endpoint_)?due_idx"/);
    expect(plan).not.toContain('Seq Scan');
  });
});

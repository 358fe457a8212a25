import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

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
    const res = await app.partner().post(`${SANDBOX}/journal`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    const line = completed(`${SANDBOX}/journal`).find((l) => (l.req as { id: string }).id === res.headers['x-request-id']);
    expect(line).toMatchObject({
      listener: 'partner', organization_id: p.organization_id, app_id: p.app_id, environment: 'sandbox',
      operation_id: res.body.operation_id, res: { statusCode: 201 },
    });
    const unauthenticated = await app.partner().post(`${SANDBOX}/journal/prepare`).send({});
    expect(unauthenticated.status).toBe(401);
    const refused = completed(`${SANDBOX}/journal/prepare`).find((l) => (l.req as { id: string }).id === unauthenticated.headers['x-request-id']);
    expect(refused).toBeDefined();
    expect(refused).not.toHaveProperty('organization_id');
    expect(raw.join('\n')).not.toContain(p.token);
  });

  it('serves Prometheus text on the console listener, without the console key', async () => {
    const metric = async (pattern: RegExp): Promise<number> => {
      const res = await app.console().get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const line = res.text.split('\n').find((l) => pattern.test(l));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    const route = `/${SANDBOX.slice(1)}/products`;
    const created = new RegExp(`^partner_http_requests_total\\{listener="partner",method="POST",route="${route}",status="201"\\} `);
    const replays = new RegExp(`^partner_idempotency_replays_total\\{route="${route}"\\} `);
    const conflicts = new RegExp(`^partner_idempotency_conflicts_total\\{route="${route}",code="idempotency_key_reused"\\} `);
    const before = { created: await metric(created), replays: await metric(replays), conflicts: await metric(conflicts) };

    const p = await aSandboxProject(app);
    const key = randomUUID();
    const create = (code: string) => app.partner().post(`${SANDBOX}/products`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', key).send({ code, name: 'Målt' });
    expect((await create('M-1')).status).toBe(201);
    expect((await create('M-1')).body.replayed).toBe(true);
    expect((await create('M-2')).status).toBe(409);
    const lookup = await app.partner().get(`${SANDBOX}/operations/${randomUUID()}`).set('Authorization', `Bearer ${p.token}`);
    expect(lookup.status).toBe(404);

    expect(await metric(created)).toBe(before.created + 2);
    expect(await metric(replays)).toBe(before.replays + 1);
    expect(await metric(conflicts)).toBe(before.conflicts + 1);
    // the route template, never the raw path with its id
    expect(await metric(new RegExp(`^partner_http_requests_total\\{listener="partner",method="GET",route="/${SANDBOX.slice(1)}/operations/:operationId",status="404"\\} `))).toBeGreaterThanOrEqual(1);
    const text = (await app.console().get('/metrics').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)).text;
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).toMatch(/^partner_http_request_duration_seconds_bucket\{le="\+Inf",listener="partner",method="POST",route="\/api\/partner\/sandbox\/v1\/products",status="201"\} \d+$/m);
    expect(text).toMatch(/^partner_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(text).toMatch(/^partner_db_pool_waiting \d+$/m);
    expect(text).toMatch(/^partner_webhook_deliveries\{outcome="pending"\} \d+$/m);
    expect(text).toMatch(/^partner_webhook_queue_age_seconds [0-9.e+-]+$/m);
    expect(text).toMatch(/^# TYPE partner_rate_limit_rejections_total counter$/m);
  });
});

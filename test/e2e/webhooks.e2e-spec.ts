import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { WebhookDispatcher, type WebhookDispatchOptions } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { WebhookSender } from '../../src/modules/webhooks/domain/webhook-sender';
import { WebhookRepository } from '../../src/modules/webhooks/domain/webhook.repository';
import { Clock } from '../../src/shared/domain/clock';
import { NO_NETWORKS } from '../../src/shared/domain/allowed-networks';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { consolePost } from '../support/production-fixtures';
import { createTestApp, describeOnPostgres, onPostgres, type TestApp } from '../support/test-app';
import { eventLoopTurns, eventually } from '../support/wait';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real local HTTP receiver; `answer` decides each response status. */
async function aReceiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer(received.length);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('operation.completed webhooks (CONTRACT §9)', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const register = async (p: SandboxProject, url: string) => {
    const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_/);
    return res.body as { id: string; secret: string };
  };
  const postJournal = (p: SandboxProject) =>
    app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));

  it('delivers exactly one signed event per receipt, with the receipt as data', async () => {
    const p = await aSandboxProject(app);
    const receiver = await aReceiver();
    try {
      const { secret } = await register(p, receiver.url);
      const started = Date.now();
      const posted = await postJournal(p);
      expect(posted.status).toBe(201);
      const product = await app
        .partner()
        .post(`${SANDBOX}/products`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send({ code: `W-${randomUUID()}`, name: 'Webhook' });
      expect(product.status).toBe(201);
      await until(() => receiver.received.length >= 2);
      expect(Date.now() - started).toBeLessThan(5000);
      await app.apps.partner.get(WebhookDispatcher).runOnce(); // a whole round later: no duplicate was due
      expect(receiver.received).toHaveLength(2);
      const wh = new Webhook(secret);
      const byOperation = new Map<string, Received>();
      for (const r of receiver.received) {
        const verified = wh.verify(r.body, r.headers as Record<string, string>) as { data: { operation_id: string } };
        byOperation.set(verified.data.operation_id, r);
      }
      for (const opId of [posted.body.operation_id, product.body.operation_id]) {
        const r = byOperation.get(opId)!;
        expect(r).toBeDefined();
        const event = JSON.parse(r.body);
        expect(Object.keys(event).sort()).toEqual(['data', 'timestamp', 'type']);
        expect(event.type).toBe('operation.completed');
        expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        const receipt = await app.partner().get(`${SANDBOX}/operations/${opId}`).set('Authorization', `Bearer ${p.token}`);
        expect(event.data).toEqual(receipt.body);
        expect(r.headers['webhook-id']).toBeDefined();
      }
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that answers 500 with the same webhook-id and the identical body', async () => {
    const p = await aSandboxProject(app);
    const receiver = await aReceiver((n) => (n === 1 ? 500 : 204));
    try {
      await register(p, receiver.url);
      expect((await postJournal(p)).status).toBe(201);
      await until(() => receiver.received.length >= 1);
      await eventually(
        async () =>
          (
            await db.query(
              `SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 AND d.attempts = 1 AND d.locked_until IS NULL`,
              [p.app_id],
            )
          ).length === 1,
        'the failed attempt to be recorded',
      );
      // the retry is scheduled ~5 s later (±10 %); bring it forward instead of sleeping
      const [delivery] = await db.query(
        `SELECT d.attempts, d.next_attempt_at > now() AS later, d.last_status FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1`,
        [p.app_id],
      );
      expect(delivery).toMatchObject({ attempts: 1, later: true, last_status: 500 });
      await db.query(`UPDATE webhook_deliveries d SET next_attempt_at = now() FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.app_id = $1`, [
        p.app_id,
      ]);
      await until(() => receiver.received.length >= 2);
      const [a, b] = receiver.received;
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      expect(b.body).toBe(a.body);
      await app.apps.partner.get(WebhookDispatcher).runOnce(); // delivered: a later round sends nothing
      expect(receiver.received).toHaveLength(2);
      // the receiver has the second request before the dispatcher has its answer and records the attempt
      const attempts = () =>
        db.query(
          `SELECT a.attempt, a.status FROM webhook_attempts a JOIN webhook_deliveries d ON d.organization_id = a.organization_id AND d.id = a.delivery_id
           JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 ORDER BY a.attempt`,
          [p.app_id],
        );
      await eventually(async () => (await attempts()).length >= 2, 'the second attempt to be recorded');
      expect(await attempts()).toEqual([
        { attempt: 1, status: 500 },
        { attempt: 2, status: 204 },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('two dispatchers running rounds at once never send the same event twice in a round', async () => {
    const p = await aSandboxProject(app);
    const receiver = await aReceiver();
    try {
      await register(p, receiver.url);
      const dispatcher = app.apps.partner.get(WebhookDispatcher);
      const posts = await Promise.all(Array.from({ length: 6 }, () => postJournal(p)));
      expect(posts.every((r) => r.status === 201)).toBe(true);
      await Promise.all([dispatcher.runOnce(), dispatcher.runOnce(), dispatcher.runOnce()]);
      await until(() => receiver.received.length >= 6);
      await dispatcher.runOnce();
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing after a prepare', async () => {
    const p = await aSandboxProject(app);
    const receiver = await aReceiver();
    try {
      await register(p, receiver.url);
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal/prepare`)
        .set('Authorization', `Bearer ${p.token}`)
        .send(aJournal(p.accounts.map((a) => a.id)));
      expect(res.status).toBe(200);
      await app.apps.partner.get(WebhookDispatcher).runOnce();
      expect(receiver.received).toHaveLength(0);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE organization_id = $1`, [p.organization_id]);
      expect(n).toBe(0); // no event to deliver, now or later
    } finally {
      await receiver.close();
    }
  });

  it('answers 404 for an unknown app and 400 at /url for a bad URL', async () => {
    expect((await consolePost(app, `/apps/${randomUUID()}/webhook-endpoints`, { url: 'https://example.com/h', environment: 'sandbox' })).status).toBe(404);
    const p = await aSandboxProject(app);
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/x']) {
      const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].pointer).toBe('/url');
    }
    const env = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: 'https://example.com/x', environment: 'staging' });
    expect(env.status).toBe(400);
    expect(env.body.errors[0].pointer).toBe('/environment');
  });
});

describe('webhook endpoints with WEBHOOK_ALLOWED_NETWORKS empty', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ webhookAllowedNetworks: NO_NETWORKS });
  });
  afterAll(() => app.close());

  it.each([
    'http://127.0.0.1:9/x',
    'http://localhost/x',
    'http://10.1.2.3/x',
    'http://192.168.0.10/x',
    'http://169.254.169.254/latest',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
  ])('refuses %s with 400 invalid_input at /url', async (url) => {
    const p = await aSandboxProject(app);
    const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.errors).toEqual([{ pointer: '/url', code: 'invalid_input', detail: expect.any(String) }]);
  });
});

/** Delivery rows of one app's endpoints, oldest event first. */
const deliveriesOf = (db: DataSource, appId: string) =>
  db.query(
    `SELECT d.id, d.event_id, d.attempts, d.delivered_at IS NOT NULL AS delivered, d.failed_at IS NOT NULL AS failed,
            d.locked_until IS NOT NULL AS leased, d.last_status, d.last_error, d.next_attempt_at > now() AS later
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 ORDER BY d.next_attempt_at`,
    [appId],
  ) as Promise<
    Array<{
      id: string;
      event_id: string;
      attempts: number;
      delivered: boolean;
      failed: boolean;
      leased: boolean;
      last_status: number | null;
      last_error: string | null;
      later: boolean;
    }>
  >;

/**
 * Deliveries finished in the whole database (delivered, given up). The worker's database is shared by the
 * suites it runs one after another, so a test dispatcher may also finish deliveries left due by earlier suites;
 * what it counts is compared with what changed in the database while it ran.
 */
const finishedInDatabase = async (db: DataSource) => {
  const [row] = (await db.query(
    `SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL)::int AS delivered, count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed FROM webhook_deliveries`,
  )) as Array<{ delivered: number; failed: number }>;
  return row;
};

const attemptsOf = (db: DataSource, appId: string) =>
  db.query(
    `SELECT a.attempt, a.status, a.error FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.organization_id = a.organization_id AND d.id = a.delivery_id
       JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 ORDER BY a.attempt`,
    [appId],
  ) as Promise<Array<{ attempt: number; status: number | null; error: string | null }>>;

/**
 * Rounds driven by the test: the app's own dispatcher is stopped, and the test builds dispatcher objects
 * (as further instances would run them) with short retry delays, so retries are seen without waiting 5 s.
 */
describe('webhook dispatch rounds driven by the test', () => {
  let app: TestApp;
  let db: DataSource;
  const dispatcher = (options: WebhookDispatchOptions = {}) =>
    new WebhookDispatcher(app.apps.partner.get(WebhookRepository), app.apps.partner.get(Clock), app.apps.partner.get(WebhookSender), options);
  const made: WebhookDispatcher[] = [];
  const aDispatcher = (options: WebhookDispatchOptions = {}) => {
    const d = dispatcher(options);
    made.push(d);
    return d;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(async () => {
    await Promise.all(made.map((d) => d.onApplicationShutdown()));
    await app.close();
  });

  const aProjectWithEndpoint = async (url: string) => {
    const p = await aSandboxProject(app);
    const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
    expect(res.status).toBe(201);
    return { p, secret: res.body.secret as string };
  };
  const postJournal = async (p: SandboxProject) => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    return res.body as { id: string; operation_id: string };
  };

  it('does not send before the retry delay, then retries with the same webhook-id and body, and records both attempts', async () => {
    const receiver = await aReceiver((n) => (n === 1 ? 503 : 200));
    try {
      const { p, secret } = await aProjectWithEndpoint(receiver.url);
      await postJournal(p);
      const d = aDispatcher({ retryDelayMs: () => 400 });
      await d.runOnce();
      expect(receiver.received).toHaveLength(1);
      expect(await deliveriesOf(db, p.app_id)).toEqual([
        expect.objectContaining({ attempts: 1, delivered: false, leased: false, last_status: 503, later: true }),
      ]);
      await d.runOnce(); // not due yet
      expect(receiver.received).toHaveLength(1);
      await eventually(async () => (await deliveriesOf(db, p.app_id))[0].later === false, 'the retry to fall due');
      await d.runOnce();
      expect(receiver.received).toHaveLength(2);
      const [a, b] = receiver.received;
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      expect(b.body).toBe(a.body);
      expect(() => new Webhook(secret).verify(b.body, b.headers as Record<string, string>)).not.toThrow();
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 2, delivered: true, leased: false, last_status: 200 })]);
      expect(await attemptsOf(db, p.app_id)).toEqual([
        { attempt: 1, status: 503, error: 'http_503' },
        { attempt: 2, status: 200, error: null },
      ]);
      await d.runOnce();
      expect(receiver.received).toHaveLength(2); // delivered: never again
    } finally {
      await receiver.close();
    }
  });

  it('gives up after ten attempts (the first and the nine retries of the schedule), every one with the same webhook-id and body', async () => {
    const receiver = await aReceiver(() => 500);
    // another app's failing delivery in the same database, as an earlier suite may leave one due
    const other = await aReceiver(() => 500);
    try {
      const before = await finishedInDatabase(db);
      const { p } = await aProjectWithEndpoint(receiver.url);
      await postJournal(p);
      await postJournal((await aProjectWithEndpoint(other.url)).p);
      // the schedule's length, with no waiting: retry at once while the schedule has a next delay
      const d = aDispatcher({ retryDelayMs: (n) => (n < 10 ? 0 : null) });
      for (let round = 0; round < 30 && !(await deliveriesOf(db, p.app_id))[0]?.failed; round++) await d.runOnce();
      expect(receiver.received).toHaveLength(10);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 10, delivered: false, failed: true, last_status: 500 })]);
      expect((await attemptsOf(db, p.app_id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      await d.runOnce();
      expect(receiver.received).toHaveLength(10);
      // metrics (partner_webhook_deliveries_finished_total): what this dispatcher finished, ours among them
      const after = await finishedInDatabase(db);
      expect(other.received).toHaveLength(10);
      expect(after.failed - before.failed).toBeGreaterThanOrEqual(2);
      expect(d.finishedDeliveries()).toEqual({ delivered: after.delivered - before.delivered, failed: after.failed - before.failed });
    } finally {
      await receiver.close();
      await other.close();
    }
  });

  it('several dispatchers running rounds at once send each event once', async () => {
    const receiver = await aReceiver();
    try {
      const { p, secret } = await aProjectWithEndpoint(receiver.url);
      const posted = await Promise.all(Array.from({ length: 12 }, () => postJournal(p)));
      const dispatchers = [aDispatcher(), aDispatcher(), aDispatcher()];
      for (let round = 0; round < 3; round++) await Promise.all(dispatchers.flatMap((d) => [d.runOnce(), d.runOnce()]));
      expect(receiver.received).toHaveLength(12);
      const wh = new Webhook(secret);
      const operations = receiver.received.map(
        (r) => (wh.verify(r.body, r.headers as Record<string, string>) as { data: { operation_id: string } }).data.operation_id,
      );
      expect(operations.sort()).toEqual(posted.map((x) => x.operation_id).sort());
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(12);
      const attempts = await attemptsOf(db, p.app_id);
      expect(attempts).toHaveLength(12);
      expect(attempts.every((a) => a.attempt === 1 && a.status === 200)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('never loses a claimed delivery: a lease held by a dead dispatcher blocks others until it expires, then it is sent once', async () => {
    const receiver = await aReceiver();
    try {
      const { p } = await aProjectWithEndpoint(receiver.url);
      await postJournal(p);
      const repo = app.apps.partner.get(WebhookRepository);
      await repo.fanOut(1000);
      // a dispatcher claims (lease of 60 s) and dies before sending
      const claimed = await repo.claimDue(1000, 60_000);
      const ours = claimed.filter((c) => c.url === receiver.url);
      expect(ours).toHaveLength(1);
      const d = aDispatcher();
      const before = await finishedInDatabase(db);
      await d.runOnce();
      expect(receiver.received).toHaveLength(0);
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 1, leased: true, delivered: false })]);
      await db.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [ours[0].id]); // the lease runs out
      await d.runOnce();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers['webhook-id']).toBe(ours[0].eventId);
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 2, leased: false, delivered: true })]);
      // the dead dispatcher's late record (attempt 1) does not undo the newer outcome
      // and counts no finished delivery (metrics): only the record that decided it does
      expect(await repo.recordAttempt(ours[0], { ok: false, status: 500, error: 'http_500', durationMs: 1, attemptedAt: new Date(), retryInMs: null })).toEqual(
        { delivered: 0, failed: 0 },
      );
      const after = await finishedInDatabase(db);
      expect(after.delivered - before.delivered).toBeGreaterThanOrEqual(1);
      expect(d.finishedDeliveries()).toEqual({ delivered: after.delivered - before.delivered, failed: after.failed - before.failed });
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 2, delivered: true })]);
      await d.runOnce();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('on shutdown stops claiming, and lets the send in flight finish and be recorded', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      void gate.then(() => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
    try {
      const { p } = await aProjectWithEndpoint(url);
      await postJournal(p);
      const d = aDispatcher();
      const round = d.runOnce();
      await until(() => received.length === 1);
      let stopped = false;
      const stopping = d.onApplicationShutdown().then(() => (stopped = true));
      await eventLoopTurns();
      expect(stopped).toBe(false); // waits for the send in flight
      release();
      await stopping;
      // ours, and any delivery another suite left due in this worker's database (CI claimed 17 once)
      expect(await round).toBeGreaterThanOrEqual(1);
      expect(await deliveriesOf(db, p.app_id)).toEqual([expect.objectContaining({ attempts: 1, delivered: true, leased: false })]);
      await postJournal(p);
      expect(await d.runOnce()).toBe(0); // stopped: claims nothing more
      expect(received).toHaveLength(1);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE organization_id = $1 AND dispatched_at IS NULL`, [p.organization_id]);
      expect(n).toBe(1); // the new event waits for a running dispatcher
    } finally {
      release();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a claim locks only endpoints with a due delivery: 200 idle endpoints are not touched (CONTRACT §16, cost grows with the work, not the endpoints)', async () => {
    const receiver = await aReceiver();
    const idle = await aSandboxProject(app);
    try {
      // 200 active, enabled endpoints with nothing to deliver (an app that writes nothing)
      await db.query(
        `INSERT INTO webhook_endpoints (id, app_id, environment, url, secret)
         SELECT gen_random_uuid(), $1, 'sandbox', 'http://127.0.0.1:9/idle', 'unused' FROM generate_series(1, 200)`,
        [idle.app_id],
      );
      const { p } = await aProjectWithEndpoint(receiver.url);
      await postJournal(p);
      await aDispatcher().runOnce();
      expect(receiver.received).toHaveLength(1);
      // a row lock (FOR NO KEY UPDATE) writes the locker into the row's xmax: an untouched row keeps 0
      const [counts] = await db.query(
        `SELECT count(*)::int AS endpoints, count(*) FILTER (WHERE xmax::text <> '0')::int AS locked FROM webhook_endpoints WHERE app_id = $1`,
        [idle.app_id],
      );
      expect(counts).toEqual({ endpoints: 200, locked: 0 });
    } finally {
      await db.query(`UPDATE webhook_endpoints SET active = false WHERE app_id = $1`, [idle.app_id]);
      await receiver.close();
    }
  });

  it('sends nothing for an event whose app has no endpoint of that environment', async () => {
    const receiver = await aReceiver();
    try {
      const p = await aSandboxProject(app);
      expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: receiver.url, environment: 'production' })).status).toBe(201);
      await postJournal(p);
      await aDispatcher().runOnce();
      expect(receiver.received).toHaveLength(0);
      expect(await deliveriesOf(db, p.app_id)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook delivery re-checks the address with WEBHOOK_ALLOWED_NETWORKS empty', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ webhookAllowedNetworks: NO_NETWORKS });
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(() => app.close());

  it('refuses, at delivery, an endpoint whose address is private (e.g. a host name that now resolves to loopback)', async () => {
    const receiver = await aReceiver();
    try {
      const p = await aSandboxProject(app);
      const db = app.apps.partner.get(DataSource);
      // stored as if it had passed registration (its name resolved to a public address then)
      await db.query(`INSERT INTO webhook_endpoints (id, app_id, environment, url, secret) VALUES ($1, $2, 'sandbox', $3, $4)`, [
        randomUUID(),
        p.app_id,
        receiver.url,
        `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
      ]);
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(p.accounts.map((a) => a.id)));
      expect(res.status).toBe(201);
      const d = new WebhookDispatcher(app.apps.partner.get(WebhookRepository), app.apps.partner.get(Clock), app.apps.partner.get(WebhookSender));
      await d.runOnce();
      await d.onApplicationShutdown();
      expect(receiver.received).toHaveLength(0);
      expect(await deliveriesOf(db, p.app_id)).toEqual([
        expect.objectContaining({ attempts: 1, delivered: false, last_error: 'forbidden_address', later: true }),
      ]);
      expect(await attemptsOf(db, p.app_id)).toEqual([{ attempt: 1, status: null, error: 'forbidden_address' }]);
    } finally {
      await receiver.close();
    }
  });
});

/** Two instances (two applications, each with its dispatcher) on one PostgreSQL database. */
describeOnPostgres('two instances dispatching from one PostgreSQL database', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp();
    two = await createTestApp();
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('deliver each event exactly once, whichever instance wrote it', async () => {
    const receiver = await aReceiver();
    try {
      const p = await aSandboxProject(one);
      expect((await consolePost(one, `/apps/${p.app_id}/webhook-endpoints`, { url: receiver.url, environment: 'sandbox' })).status).toBe(201);
      const posts = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 ? one : two)
            .partner()
            .post(`${SANDBOX}/journal`)
            .set('Authorization', `Bearer ${p.token}`)
            .set('Idempotency-Key', randomUUID())
            .send(aJournal(p.accounts.map((a) => a.id))),
        ),
      );
      expect(posts.map((r) => r.status)).toEqual(Array(16).fill(201));
      // both instances' rounds, on their timers and nudged by hand at once
      await Promise.all([one, two].flatMap((a) => [a.apps.partner.get(WebhookDispatcher).runOnce(), a.apps.partner.get(WebhookDispatcher).runOnce()]));
      await until(() => receiver.received.length >= 16);
      await Promise.all([one, two].map((a) => a.apps.partner.get(WebhookDispatcher).runOnce()));
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(16);
      expect(new Set(ids).size).toBe(16);
      // an attempt is recorded once its send has finished, a moment after the receiver has the request
      const db = one.apps.partner.get(DataSource);
      await eventually(async () => (await attemptsOf(db, p.app_id)).length >= 16, '16 recorded attempts');
      await eventLoopTurns();
      expect(await attemptsOf(db, p.app_id)).toHaveLength(16);
    } finally {
      await receiver.close();
    }
  });
});

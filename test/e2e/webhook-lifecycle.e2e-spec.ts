import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { WebhookEndpointsService, WebhookRetention } from '../../src/modules/webhooks';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { WebhookSender } from '../../src/modules/webhooks/domain/webhook-sender';
import { WebhookRepository } from '../../src/modules/webhooks/domain/webhook.repository';
import { PURGE_SQL } from '../../src/modules/webhooks/infrastructure/pg-webhook.repository';
import { Clock } from '../../src/shared/domain/clock';
import { NotFoundError } from '../../src/shared/domain/errors';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, itOnPostgres, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A receiver whose answer the test switches; counts what it got per webhook-id. */
async function aReceiver() {
  const received: string[] = [];
  const state = { status: 500 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.statusCode = state.status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * CONTRACT §9 "Lifecycle", §10: an endpoint without a 2xx for 120 h while attempts were made is disabled,
 * the console enables it again, the app read shows it; events, deliveries and attempts are purged after
 * WEBHOOK_RETENTION_DAYS once nothing of them is pending. Time moves by the Clock port, never by sleeping;
 * the test runs the dispatch rounds itself (a retry is one hour away: each round sends only what is due).
 */
describe('webhook endpoint lifecycle and retention', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.parse('2026-06-15T08:00:00.000Z'));
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    app = await createTestApp({ webhookRetentionDays: 30 }, { clock });
    db = app.apps.partner.get(DataSource);
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown(); // rounds are the test's
    // the rounds count what they claim: deliveries earlier suites left pending in this jest worker's
    // database (PostgreSQL runs share one per worker) are not this test's (a round once claimed 41)
    await db.query(`UPDATE webhook_deliveries SET failed_at = now() WHERE delivered_at IS NULL AND failed_at IS NULL`);
    dispatcher = new WebhookDispatcher(app.apps.partner.get(WebhookRepository), app.apps.partner.get(Clock), app.apps.partner.get(WebhookSender), {
      retryDelayMs: () => HOUR,
    });
  });
  afterAll(async () => {
    await dispatcher.onApplicationShutdown();
    await app.close();
  });

  const withEndpoint = async (url: string) => {
    const p = await aSandboxProject(app);
    const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
    expect(res.status).toBe(201);
    return { p, endpointId: res.body.id as string };
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
  const eventOf = async (operationId: string): Promise<string> =>
    (await db.query(`SELECT id::text AS id FROM webhook_outbox WHERE body::jsonb -> 'data' ->> 'operation_id' = $1`, [operationId]))[0].id;
  const resend = async (eventId: string, endpointId: string) =>
    expect((await consolePost(app, `/webhook-deliveries/${eventId}/${endpointId}/resend`)).status).toBe(202);
  const appRead = async (appId: string) => {
    const res = await app.console().get(`/console/v1/apps/${appId}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(res.status).toBe(200);
    return res.body as { webhook_endpoints: Array<{ id: string; url: string; environment: string; disabled: boolean }> };
  };
  const deliveryStatus = async (appId: string) => {
    const res = await app.console().get(`/console/v1/apps/${appId}/webhook-deliveries`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(res.status).toBe(200);
    return (res.body as Array<{ event_id: string; status: string }>).map((d) => d.status).sort();
  };

  it('disables an endpoint after 120 h of attempts without a 2xx; nothing more is sent, its deliveries stay pending; enable makes them due at once', async () => {
    const receiver = await aReceiver();
    try {
      const { p, endpointId } = await withEndpoint(receiver.url);
      expect((await appRead(p.app_id)).webhook_endpoints).toEqual([{ id: endpointId, url: receiver.url, environment: 'sandbox', disabled: false }]);

      const first = await eventOf((await postJournal(p)).operation_id);
      expect(await dispatcher.runOnce()).toBe(1); // fails (500) at T0
      clock.advance(119 * HOUR);
      await resend(first, endpointId);
      expect(await dispatcher.runOnce()).toBe(1); // fails at T0 + 119 h: not yet 120 h
      expect((await appRead(p.app_id)).webhook_endpoints[0].disabled).toBe(false);

      clock.advance(2 * HOUR);
      await resend(first, endpointId);
      expect(await dispatcher.runOnce()).toBe(1); // fails at T0 + 121 h: disabled
      expect((await appRead(p.app_id)).webhook_endpoints[0].disabled).toBe(true);
      expect(receiver.received).toHaveLength(3);

      // disabled: a new event and a resend wait, pending, and nothing is sent
      const second = await eventOf((await postJournal(p)).operation_id);
      await resend(first, endpointId);
      expect(await dispatcher.runOnce()).toBe(0);
      expect(receiver.received).toHaveLength(3);
      expect(await deliveryStatus(p.app_id)).toEqual(['pending', 'pending']);

      // enabled again: both are due at once (the first one's retry was an hour away)
      receiver.state.status = 200;
      await db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE endpoint_id = $1`, [endpointId]);
      const enabled = await consolePost(app, `/webhook-endpoints/${endpointId}/enable`);
      expect(enabled.status).toBe(200);
      expect(enabled.body).toEqual({ id: endpointId, disabled: false });
      expect(await dispatcher.runOnce()).toBe(2);
      expect(receiver.received.slice(3).sort()).toEqual([first, second].sort());
      expect(await deliveryStatus(p.app_id)).toEqual(['delivered', 'delivered']);
      expect((await appRead(p.app_id)).webhook_endpoints[0].disabled).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('counts the 120 h from the first failure after the last 2xx, and only while attempts were made', async () => {
    const receiver = await aReceiver();
    try {
      const { p, endpointId } = await withEndpoint(receiver.url);
      clock.advance(200 * HOUR); // no attempt for 200 h: nothing to judge
      receiver.state.status = 200;
      await postJournal(p);
      expect(await dispatcher.runOnce()).toBe(1);

      receiver.state.status = 500;
      const e = await eventOf((await postJournal(p)).operation_id);
      expect(await dispatcher.runOnce()).toBe(1); // failing since now
      clock.advance(100 * HOUR);
      receiver.state.status = 200;
      await postJournal(p);
      expect(await dispatcher.runOnce()).toBe(1); // a 2xx: the count starts again
      receiver.state.status = 500;
      clock.advance(30 * HOUR);
      await resend(e, endpointId);
      expect(await dispatcher.runOnce()).toBe(1); // 130 h after the first failure, but just after a 2xx
      expect((await appRead(p.app_id)).webhook_endpoints[0].disabled).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('answers 404 for enabling an unknown or malformed endpoint id', async () => {
    expect((await consolePost(app, `/webhook-endpoints/${randomUUID()}/enable`)).status).toBe(404);
    const malformed = await consolePost(app, `/webhook-endpoints/not-a-uuid/enable`);
    expect(malformed.status).toBe(404);
    expect(malformed.body.code).toBe('not_found');
  });

  it('removing an endpoint answers not found when it was removed already or is unknown (the repository counted 2 on PostgreSQL and PGlite)', async () => {
    const { p, endpointId } = await withEndpoint('http://127.0.0.1:9/hook');
    const endpoints = app.apps.partner.get(WebhookEndpointsService);
    await endpoints.remove(p.app_id, endpointId);
    const [row] = await db.query(`SELECT active FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(row.active).toBe(false);
    // a second removal (e.g. two console deletes at once, both past the read) finds no active endpoint
    await expect(endpoints.remove(p.app_id, endpointId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(endpoints.remove(p.app_id, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('purges events, deliveries and attempts WEBHOOK_RETENTION_DAYS after their event once nothing is pending; keeps pending ones and receipts', async () => {
    const good = await aReceiver();
    const bad = await aReceiver();
    good.state.status = 200;
    try {
      const a = await withEndpoint(good.url);
      const b = await withEndpoint(bad.url);
      const delivered = await postJournal(a.p);
      const pending = await postJournal(b.p);
      expect(await dispatcher.runOnce()).toBe(2); // one delivered, one failed and waiting for its retry
      const [deliveredEvent, pendingEvent] = [await eventOf(delivered.operation_id), await eventOf(pending.operation_id)];
      const retention = app.apps.partner.get(WebhookRetention);
      const rowsOf = async (eventId: string) =>
        (
          await db.query(
            `SELECT (SELECT count(*) FROM webhook_outbox WHERE id = $1)::int AS events,
                (SELECT count(*) FROM webhook_deliveries WHERE event_id = $1)::int AS deliveries,
                (SELECT count(*) FROM webhook_attempts t JOIN webhook_deliveries d ON d.organization_id = t.organization_id AND d.id = t.delivery_id
                  WHERE d.event_id = $1)::int AS attempts`,
            [eventId],
          )
        )[0];
      expect(await rowsOf(deliveredEvent)).toEqual({ events: 1, deliveries: 1, attempts: 1 });

      clock.advance(29 * DAY);
      await retention.purge(1);
      expect(await rowsOf(deliveredEvent)).toEqual({ events: 1, deliveries: 1, attempts: 1 }); // 29 days: kept

      clock.advance(2 * DAY);
      const fresh = await postJournal(a.p); // created now: kept
      expect(await dispatcher.runOnce()).toBeGreaterThanOrEqual(1);
      await retention.purge(1); // batches of one: several statements
      expect(await rowsOf(deliveredEvent)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
      expect(await rowsOf(pendingEvent)).toEqual({ events: 1, deliveries: 1, attempts: 1 }); // still pending: kept
      expect((await rowsOf(await eventOf(fresh.operation_id))).events).toBe(1);
      // the receipt lookup answers for the purged event's operation indefinitely
      const receipt = await app.partner().get(`${SANDBOX}/operations/${delivered.operation_id}`).set('Authorization', `Bearer ${a.p.token}`);
      expect(receipt.status).toBe(200);
      expect(receipt.body.operation_id).toBe(delivered.operation_id);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  itOnPostgres('a write is not delayed while a purge batch holds its locks', async () => {
    const receiver = await aReceiver();
    receiver.state.status = 200;
    const holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      const { p } = await withEndpoint(receiver.url);
      for (let i = 0; i < 5; i++) await postJournal(p);
      expect(await dispatcher.runOnce()).toBe(5);
      await holder.query('BEGIN');
      // everything of this organization's old events, locked and deleted, and the transaction left open
      const purged = await holder.query(PURGE_SQL, [new Date(clock.nowMs() + DAY), 1000]);
      expect(purged.rows[0].n).toBeGreaterThanOrEqual(5);
      const started = Date.now();
      const product = await app
        .partner()
        .post(`${SANDBOX}/products`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send({ code: `L-${randomUUID()}`, name: 'During the purge' });
      expect(product.status).toBe(201);
      await postJournal(p);
      expect(Date.now() - started).toBeLessThan(2_000);
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await receiver.close();
    }
  });
});

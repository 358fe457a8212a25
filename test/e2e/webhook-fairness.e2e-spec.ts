import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { WebhookSender } from '../../src/modules/webhooks/domain/webhook-sender';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { WebhookRepository } from '../../src/modules/webhooks/domain/webhook.repository';
import { Clock } from '../../src/shared/domain/clock';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { consolePost } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/** A receiver whose handler decides when (and whether) to answer; counts requests open at once. */
async function aReceiver(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const times: number[] = [];
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    times.push(Date.now());
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => open--);
    req.resume();
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    times,
    maxOpen: () => maxOpen,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * CONTRACT §9: "A slow, failing or unreachable endpoint delays only its own deliveries: every other
 * endpoint still gets its first attempt within 5 s of the commit, however many events the bad endpoint
 * has waiting."
 */
describe('webhook dispatch is fair across endpoints', () => {
  let app: TestApp;

  beforeAll(async () => {
    // its dispatcher polls on its own, as in production; WEBHOOK_ENDPOINT_CONCURRENCY=4
    app = await createTestApp({ webhookEndpointConcurrency: 4 });
  });
  afterAll(() => app.close());

  const withEndpoint = async (url: string) => {
    const p = await aSandboxProject(app);
    expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(201);
    return p;
  };
  const postJournal = async (p: SandboxProject) => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
  };

  it('an endpoint that never answers, with 40 events waiting, does not delay another endpoint’s first attempt beyond 5 s', async () => {
    const silent = await aReceiver(() => undefined); // accepts, never answers: each send runs into the 10 s timeout
    const good = await aReceiver((_req, res) => res.end('ok'));
    try {
      const bad = await withEndpoint(silent.url);
      const fine = await withEndpoint(good.url);
      for (let i = 0; i < 40; i++) await postJournal(bad);
      await until(() => silent.times.length >= 1, 5_000); // the bad endpoint's sends are under way
      await new Promise((r) => setTimeout(r, 600)); // and the dispatcher is in the middle of them
      const committed = Date.now();
      await postJournal(fine);
      await until(() => good.times.length >= 1, 8_000);
      expect(good.times[0] - committed).toBeLessThan(5_000);
      // bounded concurrency: the silent endpoint never has more than WEBHOOK_ENDPOINT_CONCURRENCY sends open
      expect(silent.maxOpen()).toBeLessThanOrEqual(4);
      expect(silent.maxOpen()).toBeGreaterThanOrEqual(1);
    } finally {
      await silent.close();
      await good.close();
    }
  }, 180_000);
});

/** A send that outlasts the lease keeps it (renewed), so no other dispatcher sends the event twice. */
describe('webhook leases are short and renewed while the send runs', () => {
  let app: TestApp;
  const made: WebhookDispatcher[] = [];
  beforeAll(async () => {
    app = await createTestApp();
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(async () => {
    await Promise.all(made.map((d) => d.onApplicationShutdown()));
    await app.close();
  });
  const aDispatcher = () => {
    const d = new WebhookDispatcher(app.apps.partner.get(WebhookRepository), app.apps.partner.get(Clock), app.apps.partner.get(WebhookSender), {
      // a lease of seconds, not of a few hundred ms: on a busy machine a renewal timer can fire a second
      // late, and the test is about renewing, not about the machine's pace
      leaseMs: 2_000,
      pollIntervalMs: 50,
    });
    made.push(d);
    return d;
  };

  it('a 7.5 s send under a 2 s lease is sent once while a second dispatcher polls, and recorded as delivered', async () => {
    const slow = await aReceiver((_req, res) => setTimeout(() => res.end('ok'), 7_500));
    try {
      const p = await aSandboxProject(app);
      expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: slow.url, environment: 'sandbox' })).status).toBe(201);
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(p.accounts.map((a) => a.id)));
      expect(res.status).toBe(201);
      const first = aDispatcher();
      const second = aDispatcher();
      const round = first.runOnce();
      await until(() => slow.times.length === 1, 60_000);
      second.start(); // polls every 50 ms during the send
      await round; // (it may also send other tests' due deliveries)
      await new Promise((r) => setTimeout(r, 300));
      expect(slow.times).toHaveLength(1);
      const rows = await app.apps.partner
        .get(DataSource)
        .query(
          `SELECT d.attempts, d.delivered_at IS NOT NULL AS delivered FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1`,
          [p.app_id],
        );
      expect(rows).toEqual([{ attempts: 1, delivered: true }]);
    } finally {
      await slow.close();
    }
  }, 180_000);
});

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { consolePost } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

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
    app.partner().post(`${SANDBOX}/journal`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', randomUUID()).send(aJournal(p.accounts.map((a) => a.id)));

  it('delivers exactly one signed event per receipt, with the receipt as data', async () => {
    const p = await aSandboxProject(app);
    const receiver = await aReceiver();
    try {
      const { secret } = await register(p, receiver.url);
      const started = Date.now();
      const posted = await postJournal(p);
      expect(posted.status).toBe(201);
      const product = await app.partner().post(`${SANDBOX}/products`).set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID()).send({ code: `W-${randomUUID()}`, name: 'Webhook' });
      expect(product.status).toBe(201);
      await until(() => receiver.received.length >= 2);
      expect(Date.now() - started).toBeLessThan(5000);
      await new Promise((r) => setTimeout(r, 1500)); // no duplicates trickle in
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
      await new Promise((r) => setTimeout(r, 300)); // let the failed attempt be recorded
      // the retry is scheduled ~5 s later (±10 %); bring it forward instead of sleeping
      const [delivery] = await db.query(
        `SELECT d.attempts, d.next_attempt_at > now() AS later, d.last_status FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1`, [p.app_id]);
      expect(delivery).toMatchObject({ attempts: 1, later: true, last_status: 500 });
      await db.query(`UPDATE webhook_deliveries d SET next_attempt_at = now() FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.app_id = $1`, [p.app_id]);
      await until(() => receiver.received.length >= 2);
      const [a, b] = receiver.received;
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      expect(b.body).toBe(a.body);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.received).toHaveLength(2);
      const attempts = await db.query(
        `SELECT a.attempt, a.status FROM webhook_attempts a JOIN webhook_deliveries d ON d.organization_id = a.organization_id AND d.id = a.delivery_id
           JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 ORDER BY a.attempt`, [p.app_id]);
      expect(attempts).toEqual([{ attempt: 1, status: 500 }, { attempt: 2, status: 204 }]);
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
      await new Promise((r) => setTimeout(r, 1500));
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
      const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${p.token}`).send(aJournal(p.accounts.map((a) => a.id)));
      expect(res.status).toBe(200);
      await app.apps.partner.get(WebhookDispatcher).runOnce();
      await new Promise((r) => setTimeout(r, 1200));
      expect(receiver.received).toHaveLength(0);
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

describe('webhook endpoints without WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ webhookAllowPrivateNetworks: false });
  });
  afterAll(() => app.close());

  it.each(['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://192.168.0.10/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x'])(
    'refuses %s with 400 invalid_input at /url',
    async (url) => {
      const p = await aSandboxProject(app);
      const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.errors).toEqual([{ pointer: '/url', code: 'invalid_input', detail: expect.any(String) }]);
    },
  );
});

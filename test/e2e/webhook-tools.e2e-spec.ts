import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../src/shared/crypto/secret-box';
import { sealStoredSecrets } from '../../src/shared/crypto/seal-stored-secrets';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real local receiver; `state.status` is its answer. */
async function aReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
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
type Receiver = Awaited<ReturnType<typeof aReceiver>>;

const DAY = 86_400_000;
const signatures = (r: Received) => String(r.headers['webhook-signature']).split(' ');
const verifies = (secret: string, r: Received, signature?: string) => {
  try {
    const headers = { ...(r.headers as Record<string, string>), ...(signature ? { 'webhook-signature': signature } : {}) };
    new Webhook(secret).verify(r.body, headers);
    return true;
  } catch {
    return false;
  }
};

/**
 * CONTRACT §9 "Signing secrets and recovery", §10 (the three console calls): rotate-secret, recover, test,
 * over HTTP against a real database and a real local receiver, with the service's own dispatcher.
 * The clock is the service's Clock, started at the real time (Standard Webhooks verification checks
 * webhook-timestamp against the real time) and moved by seconds only, but for the retention's edge.
 */
describe('webhook tools on the console API (CONTRACT §9, §10)', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.now());
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    app = await createTestApp({ webhookRetentionDays: 30 }, { clock });
    db = app.apps.partner.get(DataSource);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await app.close();
  });

  const receiver = async () => {
    const r = await aReceiver();
    receivers.push(r);
    return r;
  };
  const register = async (appId: string, url: string, environment = 'sandbox') => {
    const res = await consolePost(app, `/apps/${appId}/webhook-endpoints`, { url, environment });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const postJournal = async (p: SandboxProject) => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    return res.body as { operation_id: string };
  };
  /** What the receiver got for this operation (waits for it). */
  const deliveryOf = async (r: Receiver, operationId: string, nth = 1): Promise<Received> => {
    const of = () => r.received.filter((x) => JSON.parse(x.body).data?.operation_id === operationId);
    await eventually(() => of().length >= nth, `delivery ${nth} of ${operationId}`);
    return of()[nth - 1];
  };
  const deliveries = async (appId: string) => {
    const res = await app.console().get(`/console/v1/apps/${appId}/webhook-deliveries?limit=100`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(res.status).toBe(200);
    return res.body as Array<{ event_id: string; endpoint_id: string; operation_id: string | null; attempts: number; status: string }>;
  };

  it('rotate-secret: 200 {id, secret}; every delivery then carries v1,<new> v1,<old> (both verify), a second rotation within 24 h signs with the newest, the previous and the original until 24 h after the first (CONTRACT §21), and after 24 h only the new one signs', async () => {
    const p = await aSandboxProject(app);
    const r = await receiver();
    const { id, secret: original } = await register(p.app_id, r.url);

    const before = await deliveryOf(r, (await postJournal(p)).operation_id);
    expect(signatures(before)).toHaveLength(1);
    expect(verifies(original, before)).toBe(true);

    const rotated = await consolePost(app, `/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(['id', 'secret']);
    expect(rotated.body.id).toBe(id);
    const first = rotated.body.secret as string;
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(first).not.toBe(original);

    const during = await deliveryOf(r, (await postJournal(p)).operation_id);
    const [newSig, oldSig, ...more] = signatures(during);
    expect(more).toEqual([]);
    expect(verifies(first, during)).toBe(true);
    expect(verifies(original, during)).toBe(true);
    expect(verifies(first, during, newSig)).toBe(true); // the new one first
    expect(verifies(original, during, oldSig)).toBe(true);

    // CONTRACT §21: the first rotation was 14 h ago (its previous secret signs 10 h more); a second rotation
    // now keeps the original signing until then, 24 h after the first rotation: three signatures, newest first
    await db.query(`UPDATE webhook_endpoints SET previous_secret_until = now() + interval '10 hours' WHERE id = $1`, [id]);
    const again = await consolePost(app, `/webhook-endpoints/${id}/rotate-secret`, {});
    expect(again.status).toBe(200);
    const second = again.body.secret as string;
    const twice = await deliveryOf(r, (await postJournal(p)).operation_id);
    expect(signatures(twice)).toHaveLength(3);
    expect(verifies(second, twice, signatures(twice)[0])).toBe(true);
    expect(verifies(first, twice, signatures(twice)[1])).toBe(true);
    expect(verifies(original, twice, signatures(twice)[2])).toBe(true);

    // the first secret signs for 24 h of the database's clock (the one the dispatcher reads), the original
    // until 24 h after the first rotation
    const [{ hours, olderHours }] = await db.query(
      `SELECT EXTRACT(EPOCH FROM (previous_secret_until - now())) / 3600 AS hours, EXTRACT(EPOCH FROM (older_secret_until - now())) / 3600 AS "olderHours"
         FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
    expect(Number(hours)).toBeGreaterThan(23.9);
    expect(Number(hours)).toBeLessThanOrEqual(24);
    expect(Number(olderHours)).toBeGreaterThan(9.9);
    expect(Number(olderHours)).toBeLessThanOrEqual(10);
    await db.query(`UPDATE webhook_endpoints SET older_secret_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const two = await deliveryOf(r, (await postJournal(p)).operation_id);
    expect(signatures(two)).toHaveLength(2);
    expect(verifies(original, two)).toBe(false);
    await db.query(`UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const after = await deliveryOf(r, (await postJournal(p)).operation_id);
    expect(signatures(after)).toHaveLength(1);
    expect(verifies(second, after)).toBe(true);
    expect(verifies(first, after)).toBe(false);

    // a rotation after every overlap ended keeps only the secret it replaced
    expect((await consolePost(app, `/webhook-endpoints/${id}/rotate-secret`, {})).status).toBe(200);
    expect(signatures(await deliveryOf(r, (await postJournal(p)).operation_id))).toHaveLength(2);

    // no read shows a secret
    const read = await app.console().get(`/console/v1/apps/${p.app_id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(read.text).not.toContain(second.slice(6));
    expect(read.text).not.toContain(first.slice(6));
  });

  it('stores the previous secret sealed, never in plain text, and a SECRETS_KEY rotation reseals it too', async () => {
    const p = await aSandboxProject(app);
    const { id, secret } = await register(p.app_id, 'http://127.0.0.1:9/hook');
    expect((await consolePost(app, `/webhook-endpoints/${id}/rotate-secret`)).status).toBe(200);
    const previousOf = async () => (await db.query(`SELECT previous_secret FROM webhook_endpoints WHERE id = $1`, [id]))[0].previous_secret as string;
    expect(await previousOf()).toMatch(/^enc:v1:/);
    expect(await previousOf()).not.toContain(secret.slice('whsec_'.length));
    const v1 = app.apps.config.secretsKey!;
    const v2 = `v2:${Buffer.alloc(32, 0x22).toString('base64url')}`;
    const rotated = SecretBox.fromSpec(`${v2},${v1}`);
    try {
      await sealStoredSecrets(db, rotated);
      expect(await previousOf()).toMatch(/^enc:v2:/);
      expect(rotated.open(await previousOf(), 'webhook_endpoints.secret')).toBe(secret);
    } finally {
      // back to the suites' key, for the other test files sharing this database
      await sealStoredSecrets(db, SecretBox.fromSpec(`${v1},${v2}`));
    }
    expect(await previousOf()).toMatch(/^enc:v1:/);
  });

  it('answers 404 not_found for an unknown, malformed or deleted endpoint on all three calls, before the body is looked at', async () => {
    const p = await aSandboxProject(app);
    const { id } = await register(p.app_id, 'http://127.0.0.1:9/hook');
    await db.query(`UPDATE webhook_endpoints SET active = false WHERE id = $1`, [id]); // deleted
    for (const endpoint of [randomUUID(), 'not-a-uuid', id]) {
      for (const [call, body] of [
        ['rotate-secret', {}],
        ['recover', { since: 'bad' }],
        ['test', { unknown: 1 }],
      ] as const) {
        const res = await consolePost(app, `/webhook-endpoints/${endpoint}/${call}`, body);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    // the key is required as on every console call
    const anonymous = await app.console().post(`/console/v1/webhook-endpoints/${id}/test`).send({});
    expect(anonymous.status).toBe(401);
  });

  it('test: 202 {id, webhook_id}; one signed webhook.test event with data {endpoint_id}, to that endpoint only, shown in the deliveries and never in the events feed', async () => {
    const p = await aSandboxProject(app);
    const target = await receiver();
    const bystander = await receiver();
    const { id, secret } = await register(p.app_id, target.url);
    await register(p.app_id, bystander.url); // same app and environment

    const res = await consolePost(app, `/webhook-endpoints/${id}/test`);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'webhook_id']);
    expect(res.body.id).toBe(id);
    expect(res.body.webhook_id).toMatch(/^[0-9a-f-]{36}$/);

    await eventually(() => target.received.length === 1, 'the test event');
    const [got] = target.received;
    expect(got.headers['webhook-id']).toBe(res.body.webhook_id);
    expect(verifies(secret, got)).toBe(true);
    const body = JSON.parse(got.body);
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
    expect(body.type).toBe('webhook.test');
    expect(body.data).toEqual({ endpoint_id: id });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);

    // the deliveries list it (it is no operation's); the feed never
    const listed = (await deliveries(p.app_id)).filter((d) => d.event_id === res.body.webhook_id);
    expect(listed).toEqual([{ event_id: res.body.webhook_id, endpoint_id: id, operation_id: null, attempts: 1, status: 'delivered', last_status_code: 200 }]);
    const op = await postJournal(p);
    await deliveryOf(target, op.operation_id);
    let feed: Array<{ id: string; type: string }> = [];
    await eventually(async () => {
      const page = await app.partner().get(`${SANDBOX}/events?limit=100`).set('Authorization', `Bearer ${p.token}`);
      feed = page.body.data;
      return feed.some((e) => e.type === 'operation.completed');
    }, 'the operation in the feed');
    expect(feed.map((e) => e.type)).toEqual(['operation.completed']);
    expect(feed.map((e) => e.id)).not.toContain(res.body.webhook_id);

    // the other endpoint got the operation, never the test
    await deliveryOf(bystander, op.operation_id);
    expect(bystander.received.map((x) => JSON.parse(x.body).type)).toEqual(['operation.completed']);
  });

  it('recover: 202 {id, events}; every event of the app and environment since then is delivered again to that endpoint only, as a new delivery with its original webhook-id and body', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app); // another app's events are never recovered
    const r = await receiver();
    const bystander = await receiver();
    const { id, secret } = await register(p.app_id, r.url);
    await register(p.app_id, bystander.url);
    await register(p.app_id, 'http://127.0.0.1:9/production-hook', 'production'); // the other environment's endpoint
    const otherReceiver = await receiver();
    await register(other.app_id, otherReceiver.url);

    const old = await postJournal(p);
    await deliveryOf(r, old.operation_id);
    clock.advance(60_000);
    const since = clock.now();
    clock.advance(1_000);
    const recent = [await postJournal(p), await postJournal(p)];
    await postJournal(other);
    const firstTime = await Promise.all(recent.map((op) => deliveryOf(r, op.operation_id)));
    await sendTestAndWait(p.app_id, id); // a webhook.test event since then is not among the app's events
    const bystanderCount = () => bystander.received.length;
    await eventually(() => bystanderCount() === 3, 'the bystander endpoint got its three');
    const otherCount = otherReceiver.received.length;

    const res = await consolePost(app, `/webhook-endpoints/${id}/recover`, { since: since.toISOString() });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id, events: 2 });

    const again = await Promise.all(recent.map((op) => deliveryOf(r, op.operation_id, 2)));
    for (const [i, second] of again.entries()) {
      expect(second.headers['webhook-id']).toBe(firstTime[i].headers['webhook-id']);
      expect(second.body).toBe(firstTime[i].body); // the same bytes: type, timestamp and receipt
      expect(verifies(secret, second)).toBe(true);
    }
    // new deliveries beside the delivered ones: two per recovered event in the read, each delivered. The dispatcher
    // records a delivery once the receiver has answered, which is after the receiver above saw the request: the read
    // waits for that record (it read 'pending' once on a loaded machine)
    const mineOf = (listed: Awaited<ReturnType<typeof deliveries>>, op: { operation_id: string }) =>
      listed.filter((d) => d.operation_id === op.operation_id && d.endpoint_id === id).map((d) => [d.status, d.attempts]);
    let listed: Awaited<ReturnType<typeof deliveries>> = [];
    await eventually(async () => {
      listed = await deliveries(p.app_id);
      return recent.every((op) => mineOf(listed, op).every(([status]) => status !== 'pending'));
    }, 'the recovered deliveries recorded');
    for (const op of recent)
      expect(mineOf(listed, op)).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
    // nothing before since, nothing to the other endpoints, no other app's, no test event again
    await new Promise((w) => setTimeout(w, 500));
    expect(r.received.filter((x) => JSON.parse(x.body).data?.operation_id === old.operation_id)).toHaveLength(1);
    expect(r.received.filter((x) => JSON.parse(x.body).type === 'webhook.test')).toHaveLength(1);
    expect(bystanderCount()).toBe(3);
    expect(otherReceiver.received).toHaveLength(otherCount);

    // recovering twice makes one more delivery of each
    const twice = await consolePost(app, `/webhook-endpoints/${id}/recover`, { since: since.toISOString() });
    expect(twice.body).toEqual({ id, events: 2 });
    await Promise.all(recent.map((op) => deliveryOf(r, op.operation_id, 3)));
  });

  /** Sends a test event to the endpoint and waits until it is delivered. */
  async function sendTestAndWait(appId: string, endpointId: string): Promise<void> {
    const res = await consolePost(app, `/webhook-endpoints/${endpointId}/test`);
    expect(res.status).toBe(202);
    await eventually(
      async () => (await deliveries(appId)).some((d) => d.event_id === res.body.webhook_id && d.status === 'delivered'),
      'the test event delivered',
    );
  }

  it('recover refuses a since that is missing, not a date, before the retention or in the future (400 at /since), and a disabled endpoint (409: enable it first)', async () => {
    const p = await aSandboxProject(app);
    const { id } = await register(p.app_id, 'http://127.0.0.1:9/hook');
    const now = clock.nowMs();
    for (const since of [
      undefined,
      null,
      'yesterday',
      42,
      '2026-02-30T00:00:00Z',
      new Date(now - 31 * DAY).toISOString(),
      new Date(now + 60_000).toISOString(),
    ]) {
      const res = await consolePost(app, `/webhook-endpoints/${id}/recover`, since === undefined ? {} : { since });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/since']);
    }
    const unknownField = await consolePost(app, `/webhook-endpoints/${id}/recover`, { since: new Date(now).toISOString(), extra: true });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/extra']);

    await db.query(`UPDATE webhook_endpoints SET disabled_at = now(), failing_since = now() - interval '121 hours' WHERE id = $1`, [id]);
    const disabled = await consolePost(app, `/webhook-endpoints/${id}/recover`, { since: new Date(now - DAY).toISOString() });
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe('resource_conflict');
    expect(disabled.body.detail).toMatch(/disabled/);
    expect(disabled.body.detail).toMatch(/enable/i);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [id]);
    expect(n).toBe(0);

    expect((await consolePost(app, `/webhook-endpoints/${id}/enable`)).status).toBe(200);
    const enabled = await consolePost(app, `/webhook-endpoints/${id}/recover`, { since: new Date(now - DAY).toISOString() });
    expect(enabled.status).toBe(202);
    expect(enabled.body).toEqual({ id, events: 0 });
  });
});

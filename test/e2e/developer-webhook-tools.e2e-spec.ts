import { postAndFollow } from '../support/consent-fixtures';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { aDeveloper, anAppOnThePage, type Developer } from '../support/developer-fixtures';
import { aJournal, SANDBOX } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

async function aReceiver(status = 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;
const accountIds = (html: string) => {
  const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
  return [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
};
/** The endpoint's block of the Webhooks section. */
const endpointBlock = (html: string, endpointId: string) => {
  const start = html.indexOf(`id="endpoint-${endpointId}"`);
  if (start < 0) throw new Error(`no block of endpoint ${endpointId}`);
  const end = html.indexOf('class="endpoint"', start + 1);
  return html.slice(start, end < 0 ? html.indexOf('<h3>Add endpoint</h3>', start) : end);
};
/** The row of a delivery in Latest deliveries. */
const deliveryRow = (html: string, eventId: string) => {
  const start = html.lastIndexOf('<tr>', html.indexOf(`data-label="Event"><code>${eventId}</code>`));
  return html.slice(start, html.indexOf('</tr>', start));
};

/**
 * CONTRACT §15 "Webhook tools", "What happened to a delivery", and §10 "developers' apps in the app read":
 * the developer console's endpoint section over HTTP (forms with their CSRF token), and what the operator sees.
 */
describe('webhook tools in the developer console (CONTRACT §15) and the operator app read (§10)', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.now());
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    db = app.apps.partner.get(DataSource);
  });
  afterAll(async () => {
    await Promise.all(closers.map((c) => c()));
    await app.close();
  });

  const receiver = async (status = 200) => {
    const r = await aReceiver(status);
    closers.push(r.close);
    return r;
  };
  const consoleGet = (path: string) => app.console().get(`/console/v1${path}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
  /** Adds an endpoint on the page; its id from the operator's app read, its secret from the page (shown once). */
  const addEndpoint = async (d: Developer, appId: string, url: string, environment: 'sandbox' | 'production' = 'sandbox') => {
    // CONTRACT §18: 303 to the Webhooks section, which shows the secret once
    const res = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints`, { url, environment });
    expect([res.postStatus, res.status]).toEqual([303, 200]);
    const secret = issued(res.text);
    const read = await consoleGet(`/apps/${appId}`);
    const endpoint = (read.body.webhook_endpoints as Array<{ id: string; url: string; environment: string }>).find(
      (e) => e.url === url && e.environment === environment,
    );
    if (!endpoint) throw new Error(`the app read does not list ${url} (${environment})`);
    return { id: endpoint.id, secret };
  };
  const sandboxToken = async (d: Developer, appId: string) => issued((await postAndFollow(d.driver, `/developers/apps/${appId}/sandbox-token`, {})).text);
  const postJournal = async (token: string, accounts: string[]) => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(accounts));
    expect(res.status).toBe(201);
    return res.body as { operation_id: string };
  };
  const deliveriesOf = async (appId: string) =>
    (await consoleGet(`/apps/${appId}/webhook-deliveries?limit=100`)).body as Array<{
      event_id: string;
      endpoint_id: string;
      operation_id: string | null;
      attempts: number;
      status: string;
    }>;

  it("lists a developer app's sandbox and production endpoints and its deliveries under the app's own id", async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d, 'Operatøren ser alt');
    const r = await receiver();
    const sandbox = await addEndpoint(d, appId, r.url, 'sandbox');
    const production = await addEndpoint(d, appId, 'http://127.0.0.1:9/prod', 'production');
    const read = await consoleGet(`/apps/${appId}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(appId);
    expect(read.body.webhook_endpoints).toEqual([
      { id: sandbox.id, url: r.url, environment: 'sandbox', disabled: false },
      { id: production.id, url: 'http://127.0.0.1:9/prod', environment: 'production', disabled: false },
    ]);

    const page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    const op = await postJournal(await sandboxToken(d, appId), accountIds(page));
    await eventually(async () => (await deliveriesOf(appId)).some((x) => x.status === 'delivered'), 'the sandbox delivery');
    expect(new Webhook(sandbox.secret).verify(r.received[0].body, r.received[0].headers as Record<string, string>)).toMatchObject({
      data: { operation_id: op.operation_id },
    });
    const listed = await deliveriesOf(appId);
    expect(listed).toEqual([expect.objectContaining({ endpoint_id: sandbox.id, operation_id: op.operation_id, status: 'delivered', attempts: 1 })]);
    // the sandbox project's app is the app itself: no second, hidden app holds its events
    const [{ n }] = await db.query(
      `SELECT count(DISTINCT app_id)::int AS n FROM webhook_outbox WHERE organization_id = (
      SELECT organization_id FROM webhook_outbox WHERE body::jsonb -> 'data' ->> 'operation_id' = $1)`,
      [op.operation_id],
    );
    expect(n).toBe(1);
    expect(
      (await db.query(`SELECT app_id::text AS app_id FROM webhook_outbox WHERE body::jsonb -> 'data' ->> 'operation_id' = $1`, [op.operation_id]))[0].app_id,
    ).toBe(appId);
  });

  it('shows each delivery with its attempts (time, status code or failure, duration) and the next attempt time', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const failing = await receiver(500);
    const closed = `http://127.0.0.1:${await freePort()}/hook`;
    const five = await addEndpoint(d, appId, failing.url);
    const refused = await addEndpoint(d, appId, closed);
    const page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    const op = await postJournal(await sandboxToken(d, appId), accountIds(page));
    await eventually(async () => (await deliveriesOf(appId)).length === 2, 'the two deliveries');
    const events = await deliveriesOf(appId);
    const eventId = events[0].event_id;
    expect(events.map((e) => e.operation_id)).toEqual([op.operation_id, op.operation_id]);

    // an attempt is shown once recorded (the attempts counter counts it from its claim)
    let rows: string[] = [];
    await eventually(async () => {
      const html = (await d.driver.get(`/developers/apps/${appId}`)).text;
      rows = html.split('<tr>').filter((row) => row.includes(`<code>${eventId}</code>`));
      return rows.length === 2 && rows.every((row) => row.includes('<li>'));
    }, 'both first attempts on the page');
    const of = (endpointId: string) => rows.find((row) => row.includes(`name="endpoint_id" value="${endpointId}"`)) as string;
    expect(of(five.id)).toMatch(/<li><time datetime="[^"]+">\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC<\/time> — 500 non_2xx, \d+ ms<\/li>/);
    expect(of(refused.id)).toMatch(/<li><time datetime="[^"]+">\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC<\/time> — connection_refused, \d+ ms<\/li>/);
    for (const id of [five.id, refused.id]) {
      expect(of(id)).toMatch(/data-label="Next attempt"><time datetime="[^"]+">\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC<\/time>/);
      expect(of(id)).toContain('data-label="Status">pending<');
    }
  });

  it('Send test event, Rotate secret (the new secret shown once, both signatures), Recover with Since, and Enable for a disabled endpoint', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const r = await receiver();
    const { id, secret } = await addEndpoint(d, appId, r.url);
    let page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    const block = endpointBlock(page, id);
    for (const name of ['Send test event', 'Rotate secret', 'Recover', 'Since', 'Delete']) expect(block).toContain(`>${name}<`);
    expect(block).not.toContain('>Enable<');

    // Send test event
    const sent = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/test`, { endpoint_id: id });
    expect(sent.status).toBe(303);
    await eventually(() => r.received.length === 1, 'the test event');
    const test = JSON.parse(r.received[0].body);
    expect(test).toMatchObject({ type: 'webhook.test', data: { endpoint_id: id } });
    page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(deliveryRow(page, String(r.received[0].headers['webhook-id']))).toContain('webhook.test');

    // Rotate secret: shown once, on the page its 303 leads to; deliveries then verify with the new and the old secret
    const rotated = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints/rotate-secret`, { endpoint_id: id });
    expect([rotated.postStatus, rotated.status]).toEqual([303, 200]);
    const newSecret = issued(rotated.text);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect((await d.driver.get(`/developers/apps/${appId}`)).text).not.toContain(newSecret);
    const token = await sandboxToken(d, appId);
    const op = await postJournal(token, accountIds(page));
    await eventually(() => r.received.length === 2, 'the operation');
    const delivered = r.received[1];
    expect(String(delivered.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [newSecret, secret])
      expect(new Webhook(s).verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({ data: { operation_id: op.operation_id } });

    // Recover: a bad Since answers the form again with the reason beside it; a good one delivers again
    const bad = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/recover`, { endpoint_id: id, since: 'last tuesday' });
    expect(bad.status).toBe(422);
    expect(endpointBlock(bad.text, id)).toMatch(/<p class="error" id="since-error-[^"]+">Since must be an ISO 8601/);
    expect(endpointBlock(bad.text, id)).toContain('value="last tuesday"');
    const since = new Date(clock.nowMs() - 3_600_000).toISOString().slice(0, 16).replace('T', ' '); // "2026-11-25 08:00", UTC
    const recovered = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/recover`, { endpoint_id: id, since });
    expect(recovered.status).toBe(303);
    await eventually(() => r.received.length === 3, 'the recovered operation');
    expect(r.received[2].body).toBe(delivered.body);
    expect(r.received[2].headers['webhook-id']).toBe(delivered.headers['webhook-id']);

    // Disabled: the section says so and offers Enable; Recover is refused with the advice to enable it
    await db.query(`UPDATE webhook_endpoints SET disabled_at = now() WHERE id = $1`, [id]);
    page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(endpointBlock(page, id)).toContain('>disabled<');
    expect(endpointBlock(page, id)).toContain('>Enable<');
    const refused = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/recover`, { endpoint_id: id, since });
    expect(refused.status).toBe(409);
    expect(endpointBlock(refused.text, id)).toMatch(/disabled: enable it first/);
    const enabled = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/enable`, { endpoint_id: id });
    expect(enabled.status).toBe(303);
    page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(endpointBlock(page, id)).toContain('>active<');
    expect(endpointBlock(page, id)).not.toContain('>Enable<');
  });

  it("refuses the tools on another developer's or another app's endpoint (404) and without a CSRF token (403), changing nothing", async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const otherApp = await anAppOnThePage(d, 'Den anden');
    const r = await receiver();
    const { id } = await addEndpoint(d, appId, r.url);
    const stranger = await aDeveloper(app, clock);
    const strangerApp = await anAppOnThePage(stranger);
    for (const tool of ['test', 'rotate-secret', 'recover', 'enable']) {
      const form = { endpoint_id: id, since: new Date(clock.nowMs()).toISOString() };
      expect((await d.driver.post(`/developers/apps/${otherApp}/webhook-endpoints/${tool}`, form)).status).toBe(404);
      expect((await stranger.driver.post(`/developers/apps/${strangerApp}/webhook-endpoints/${tool}`, form)).status).toBe(404);
      expect((await d.driver.post(`/developers/apps/${appId}/webhook-endpoints/${tool}`, form, { csrf: null })).status).toBe(403);
    }
    const [{ rotated, deliveries }] = await db.query(
      `SELECT (SELECT previous_secret IS NOT NULL FROM webhook_endpoints WHERE id = $1) AS rotated,
              (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = $1) AS deliveries`,
      [id],
    );
    expect({ rotated, deliveries }).toEqual({ rotated: false, deliveries: 0 });
  });
});

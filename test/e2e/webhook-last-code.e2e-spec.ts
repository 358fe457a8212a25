import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { EMBEDDED_STORE_NETWORKS, NO_NETWORKS, parseAllowedNetworks } from '../../src/shared/domain/allowed-networks';
import { PageDriver, postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage } from '../support/developer-fixtures';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { StubResolver } from '../support/stub-resolver';
import { createTestApp, describeOnPostgres, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

const deliveriesOf = async (app: TestApp, appId: string) => {
  const res = await app.console().get(`/console/v1/apps/${appId}/webhook-deliveries?limit=50`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
  expect(res.status).toBe(200);
  return res.body as Array<{ endpoint_id: string; last_status_code: number | null }>;
};

/** The "Last code" cells of the developer console's deliveries table. */
const lastCodes = (html: string) => [...html.matchAll(/data-label="Last code">([^<]*)</g)].map((m) => m[1]);

/**
 * Issue 35: "Last code" never shows what an address answered that would be refused now — with private
 * networks refused, neither the console API's deliveries read (and resend) nor the developer console tells
 * what a loopback, private or link-local address answered, whatever was allowed when it answered.
 */
describe('a delivery’s last status code is shown only while the address that answered would be allowed', () => {
  let app: TestApp;
  const resolver = new StubResolver({
    'hooks.internal.test': ['10.1.2.3'],
    'hooks.mixed.test': ['203.0.113.9', '10.9.9.9'],
    'hooks.partner.test': ['93.184.216.34'],
  });

  beforeAll(async () => {
    app = await createTestApp({ webhookAllowedNetworks: NO_NETWORKS }, { resolver });
    // nothing here is sent: the rows below are finished deliveries as an earlier configuration left them
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(() => app.close());

  it('hides codes answered by a private address, and old codes whose endpoint is (or resolves to) private or does not resolve now', async () => {
    const p = await aSandboxProject(app);
    const db = app.apps.partner.get(DataSource);
    const eventId = randomUUID();
    await db.query(
      `INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at, dispatched_at)
       VALUES ($1, $2, 'sandbox', $3, 'operation.completed', $4, now(), now())`,
      [
        p.organization_id,
        eventId,
        p.app_id,
        JSON.stringify({ type: 'operation.completed', timestamp: new Date().toISOString(), data: { operation_id: randomUUID() } }),
      ],
    );
    // [url, the address that answered (null: recorded before addresses were), its code, shown?]
    const cases: Array<[string, string | null, number, boolean]> = [
      ['http://hooks.partner.test/a', '93.184.216.34', 201, true],
      ['http://hooks.partner.test/b', '10.0.0.9', 202, false],
      ['http://hooks.partner.test/c', '::ffff:127.0.0.1', 203, false],
      ['http://hooks.partner.test/d', null, 204, true],
      ['http://hooks.internal.test/e', null, 205, false],
      ['http://hooks.mixed.test/f', null, 206, false],
      ['http://hooks.unknown.test/g', null, 207, false],
      ['http://10.0.0.5/h', null, 208, false],
      ['http://localhost:9/i', null, 209, false],
    ];
    const expected: Record<string, number | null> = {};
    for (const [url, address, code, shown] of cases) {
      const endpointId = randomUUID();
      await db.query(`INSERT INTO webhook_endpoints (id, app_id, environment, url, host, secret) VALUES ($1, $2, 'sandbox', $3, 'x', 'sealed')`, [
        endpointId,
        p.app_id,
        url,
      ]);
      await db.query(
        `INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, attempts, next_attempt_at, delivered_at, last_status, last_address)
         VALUES ($1, $2, $3, $4, 1, now(), now(), $5, $6)`,
        [p.organization_id, randomUUID(), eventId, endpointId, code, address],
      );
      expected[endpointId] = shown ? code : null;
    }
    const read = await deliveriesOf(app, p.app_id);
    expect(Object.fromEntries(read.map((d) => [d.endpoint_id, d.last_status_code]))).toEqual(expected);
    // the resend's answer follows the same rule
    const hidden = Object.entries(expected).find(([, code]) => code === null)![0];
    const resend = await app
      .console()
      .post(`/console/v1/webhook-deliveries/${eventId}/${hidden}/resend`)
      .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
      .send({});
    expect(resend.status).toBe(202);
    expect(resend.body.last_status_code).toBeNull();
    await db.query(`UPDATE webhook_deliveries SET failed_at = now() WHERE event_id = $1 AND delivered_at IS NULL AND failed_at IS NULL`, [eventId]);
  });
});

/**
 * The probe's case: an instance that allowed private networks recorded what a loopback receiver answered;
 * the deployment then runs without them (two instances on one database, as after a restart with the new
 * setting). The answer stays readable only where private networks are allowed.
 */
describeOnPostgres('a code answered from loopback while private networks were allowed, read once they are not', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 10, 0, 0));
  let allowing: TestApp;
  let refusing: TestApp;

  beforeAll(async () => {
    allowing = await createTestApp({ webhookAllowedNetworks: parseAllowedNetworks(EMBEDDED_STORE_NETWORKS) }, { clock });
    refusing = await createTestApp({ webhookAllowedNetworks: NO_NETWORKS }, { clock, resolver: new StubResolver({}) });
    // only the allowing instance delivers (the refusing one would record forbidden_address over the code)
    await refusing.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(async () => {
    await allowing?.close();
    await refusing?.close();
  });

  it('the console read and the developer console show 418 on the allowing instance and no code on the refusing one', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(418).end('internal detail');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const d = await aDeveloper(allowing, clock);
      const appId = await anAppOnThePage(d);
      await d.driver.get(`/developers/apps/${appId}`);
      expect((await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(303);
      const page = await postAndFollow(d.driver, `/developers/apps/${appId}/sandbox-token`, {});
      const token = /id="issued-value">([^<]+)</.exec(page.text)?.[1] as string;
      const section = page.text.slice(page.text.indexOf('id="sandbox"'), page.text.indexOf('id="oauth"'));
      const accounts = [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
      const write = await allowing
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(accounts));
      expect(write.status).toBe(201);
      const db = allowing.apps.partner.get(DataSource);
      const [{ sandbox_app_id: sandboxAppId }] = (await db.query(`SELECT sandbox_app_id FROM developer_apps WHERE app_id = $1`, [appId])) as Array<{
        sandbox_app_id: string;
      }>;
      await eventually(async () => (await deliveriesOf(allowing, sandboxAppId)).some((x) => x.last_status_code === 418), 'the 418 recorded', 20_000);

      expect((await deliveriesOf(allowing, sandboxAppId)).map((x) => x.last_status_code)).toEqual([418]);
      expect((await deliveriesOf(refusing, sandboxAppId)).map((x) => x.last_status_code)).toEqual([null]);
      const shownPage = (await d.driver.get(`/developers/apps/${appId}`)).text;
      expect(lastCodes(shownPage)).toEqual(['418']);
      expect(shownPage).toMatch(/UTC<\/time> — 418 non_2xx, \d+ ms</); // the attempt's own line (CONTRACT §15)
      const elsewhere = new PageDriver(refusing);
      for (const [k, v] of d.driver.cookies) elsewhere.cookies.set(k, v);
      const hiddenPage = (await elsewhere.get(`/developers/apps/${appId}`)).text;
      expect(lastCodes(hiddenPage)).toEqual(['–']);
      // each attempt's code follows the same rule: the failure stays, the code goes
      expect(hiddenPage).toMatch(/UTC<\/time> — non_2xx, \d+ ms</);
      // no 418 as a code anywhere in the webhooks section (a uuid or a duration may hold the digits by chance)
      const hooks = hiddenPage.slice(hiddenPage.indexOf('id="webhooks"'), hiddenPage.indexOf('<section', hiddenPage.indexOf('id="webhooks"') + 1));
      expect(hooks.length).toBeGreaterThan(100);
      expect(hooks).not.toMatch(/(?<![0-9a-f-])418(?![0-9a-f-]| ms)/);
    } finally {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await allowing.apps.partner.get(DataSource).query(
        `UPDATE webhook_deliveries SET failed_at = now() WHERE delivered_at IS NULL AND failed_at IS NULL
            AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE url = $1)`,
        [url],
      );
    }
  }, 180_000);
});

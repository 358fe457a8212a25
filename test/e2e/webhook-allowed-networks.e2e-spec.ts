import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { WebhookSender } from '../../src/modules/webhooks/domain/webhook-sender';
import { WebhookRepository } from '../../src/modules/webhooks/domain/webhook.repository';
import { parseAllowedNetworks } from '../../src/shared/domain/allowed-networks';
import { Clock } from '../../src/shared/domain/clock';
import { aDeveloper, anAppOnThePage } from '../support/developer-fixtures';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { StubResolver } from '../support/stub-resolver';
import { createTestApp, type TestApp } from '../support/test-app';

const NAMED = 'WEBHOOK_ALLOWED_NETWORKS';

/**
 * Issue 43 finding 10, CONTRACT §2 WEBHOOK_ALLOWED_NETWORKS: the ranges webhook endpoints may reach besides
 * public addresses, for the operator's endpoints (console API) and the developers' (developer console)
 * alike; link-local and metadata addresses never. Names resolve through a stub: nothing is sent to any of
 * these addresses (the dispatcher of this app is stopped; the one delivery run below is refused before it
 * connects). The embedded store's default (loopback) with `npm start` alone: local-webhooks.e2e-spec.ts.
 */
describe('WEBHOOK_ALLOWED_NETWORKS=10.0.0.0/8: registration and delivery (issue 43 finding 10)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 28, 12, 0, 10));
  const resolver = new StubResolver({
    'hooks.internal.test': ['10.1.2.3'],
    'hooks.office.test': ['192.168.1.20'],
    'hooks.metadata.test': ['169.254.169.254'],
    'hooks.mixed.test': ['10.1.2.4', 'fe80::1'],
  });

  beforeAll(async () => {
    app = await createTestApp({ webhookAllowedNetworks: parseAllowedNetworks('10.0.0.0/8'), developerSignup: 'open' }, { clock, resolver });
    // nothing is delivered by this app's own dispatcher (10.0.0.0/8 is allowed here, and nothing may be sent there)
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
  });
  afterAll(() => app.close());

  const accepted = ['http://hooks.internal.test/in', 'http://10.9.9.9:8080/in'];
  const refused = [
    'http://127.0.0.1:4000/hooks',
    'http://localhost:4000/hooks',
    'http://hooks.office.test/in',
    'http://192.168.1.20/in',
    'http://169.254.169.254/latest/meta-data',
    'http://hooks.metadata.test/latest',
    'http://hooks.mixed.test/in',
    'http://[fe80::1]/in',
    'http://[::ffff:169.254.169.254]/in',
    'http://0.0.0.0:4000/in',
  ];

  it(`takes a listed range and refuses the rest, naming ${NAMED}, for the operator's endpoints and the developers' alike (nothing stored)`, async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const db = app.apps.partner.get(DataSource);
    try {
      await d.driver.get(`/developers/apps/${appId}`);
      for (const url of refused) {
        const page = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url, environment: 'sandbox' });
        expect([url, page.status]).toEqual([url, 422]);
        expect(page.text).toContain(`into a network the operator allows in ${NAMED}`);
        const api = await consolePost(app, `/apps/${appId}/webhook-endpoints`, { url, environment: 'sandbox' });
        expect([url, api.status]).toEqual([url, 400]);
        expect(api.body.errors).toEqual([
          {
            pointer: '/url',
            code: 'invalid_input',
            detail: `must point to a public address, or into a network listed in ${NAMED} (never link-local or metadata addresses)`,
          },
        ]);
      }
      expect(await db.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE app_id = $1`, [appId])).toEqual([{ n: 0 }]);
      const [developers, operators] = [accepted[0], accepted[1]];
      expect((await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: developers, environment: 'sandbox' })).status).toBe(303);
      expect((await consolePost(app, `/apps/${appId}/webhook-endpoints`, { url: operators, environment: 'sandbox' })).status).toBe(201);
      const rows: Array<{ url: string; self_service: boolean }> = await db.query(
        `SELECT url, self_service FROM webhook_endpoints WHERE app_id = $1 ORDER BY url`,
        [appId],
      );
      expect(rows).toEqual([
        { url: 'http://10.9.9.9:8080/in', self_service: false },
        { url: 'http://hooks.internal.test/in', self_service: true },
      ]);
    } finally {
      // no later dispatcher of this worker's database may ever send to them
      await db.query(`DELETE FROM webhook_endpoints WHERE app_id = $1`, [appId]);
    }
  });

  it('refuses at delivery a name that resolves into an unlisted or a link-local address by then (forbidden_address, nothing sent)', async () => {
    const p = await aSandboxProject(app);
    const db = app.apps.partner.get(DataSource);
    for (const [host, later] of [
      ['hooks.rebind-office.test', '192.168.1.20'],
      ['hooks.rebind-metadata.test', '169.254.169.254'],
    ]) {
      // public when registered (the stub's answer; nothing is sent while it is)
      resolver.table[host] = ['93.184.216.34'];
      expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: `http://${host}/in`, environment: 'sandbox' })).status).toBe(201);
      resolver.table[host] = [later];
    }
    const write = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(write.status).toBe(201);
    const dispatcher = new WebhookDispatcher(app.apps.partner.get(WebhookRepository), app.apps.partner.get(Clock), app.apps.partner.get(WebhookSender));
    try {
      await dispatcher.runOnce();
    } finally {
      await dispatcher.onApplicationShutdown();
    }
    const attempts: Array<{ url: string; error: string | null; status: number | null }> = await db.query(
      `SELECT e.url, a.error, a.status FROM webhook_attempts a JOIN webhook_deliveries d ON d.organization_id = a.organization_id AND d.id = a.delivery_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.app_id = $1 ORDER BY e.url`,
      [p.app_id],
    );
    expect(attempts).toEqual([
      { url: 'http://hooks.rebind-metadata.test/in', error: 'forbidden_address', status: null },
      { url: 'http://hooks.rebind-office.test/in', error: 'forbidden_address', status: null },
    ]);
  });
});

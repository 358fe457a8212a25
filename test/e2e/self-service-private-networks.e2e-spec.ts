import { DataSource } from 'typeorm';
import { aDeveloper, anAppOnThePage } from '../support/developer-fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 35, finding 1: with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true and developer sign-up open (DEVELOPER_SIGNUP
 * unset), a stranger who signs up must not reach the deployment's own network: the developer console's
 * endpoints stay on public addresses, while the operator's (console API) may use private ones.
 */
describe('private networks with open sign-up: the operator\'s endpoints only (issue 35)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({ webhookAllowPrivateNetworks: true, webhookPrivateNetworksSelfService: false, developerSignup: 'open' }, { clock });
  });
  afterAll(() => app.close());

  it('refuses a developer console endpoint on 127.0.0.1 (422, nothing stored) and takes the operator\'s, marking only the developer\'s self-service', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    await d.driver.get(`/developers/apps/${appId}`);
    const refused = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: 'http://127.0.0.1:4000/hooks', environment: 'sandbox' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('must not point to a loopback, private or link-local address');
    const db = app.apps.partner.get(DataSource);
    expect(await db.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE app_id = $1`, [appId])).toEqual([{ n: 0 }]);
    // a public host through the page is stored as self-service
    const accepted = await d.driver.post(`/developers/apps/${appId}/webhook-endpoints`, { url: 'https://hooks.partner.example/in', environment: 'sandbox' });
    expect([200, 303]).toContain(accepted.status);
    // the operator may aim the same app at a private address
    const operator = await consolePost(app, `/apps/${appId}/webhook-endpoints`, { url: 'http://127.0.0.1:4000/hooks', environment: 'sandbox' });
    expect(operator.status).toBe(201);
    const rows: Array<{ url: string; self_service: boolean }> = await db.query(`SELECT url, self_service FROM webhook_endpoints WHERE app_id = $1 ORDER BY url`, [appId]);
    expect(rows).toEqual([
      { url: 'http://127.0.0.1:4000/hooks', self_service: false },
      { url: 'https://hooks.partner.example/in', self_service: true },
    ]);
  });
});

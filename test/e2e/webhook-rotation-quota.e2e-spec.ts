import { DataSource } from 'typeorm';
import { postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, confirmationOf } from '../support/developer-fixtures';
import { aSandboxProject } from '../support/fixtures';
import { consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/**
 * Issue 43 finding 8 (50 rotations in 1.2 s), CONTRACT §20: at most 3 webhook secret rotations per endpoint per
 * 24 h, 429 with Retry-After beyond, on every path that rotates (the console API and the developer console),
 * counted with the endpoint row in PostgreSQL.
 */
describe('webhook secret rotations: at most 3 per endpoint per 24 h (CONTRACT §20)', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.now());
  // nothing is ever delivered: no event is made for these endpoints
  const URL = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const anEndpoint = async () => {
    const p = await aSandboxProject(app);
    const res = await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url: URL, environment: 'sandbox' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const rotate = (id: string) => consolePost(app, `/webhook-endpoints/${id}/rotate-secret`);
  const sealed = async (id: string) => (await db.query(`SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1`, [id]))[0];

  it('console API: three rotations answer 200, the fourth 429 rate_limited with Retry-After up to 24 h, and changes nothing', async () => {
    const id = await anEndpoint();
    for (let i = 1; i <= 3; i++) expect({ i, status: (await rotate(id)).status }).toEqual({ i, status: 200 });
    const before = await sealed(id);
    const refused = await rotate(id);
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limited']);
    expect(refused.body.detail).toContain('at most 3 times in 24 hours');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 120);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await sealed(id)).toEqual(before);
    // an unknown endpoint is still 404
    const unknown = await rotate('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });

  it('eight rotations of one endpoint at once: exactly three are made', async () => {
    const id = await anEndpoint();
    const answers = await Promise.all(Array.from({ length: 8 }, () => rotate(id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    const [{ n }] = await db.query(`SELECT cardinality(secret_rotations) AS n FROM webhook_endpoints WHERE id = $1`, [id]);
    expect(Number(n)).toBe(3);
  });

  it('the window slides: once the oldest rotation is 24 h old, one more is allowed', async () => {
    const id = await anEndpoint();
    for (let i = 0; i < 3; i++) expect((await rotate(id)).status).toBe(200);
    expect((await rotate(id)).status).toBe(429);
    // the oldest rotation moved back past the window, as 24 h passing would
    await db.query(
      `UPDATE webhook_endpoints SET secret_rotations = ARRAY(SELECT CASE WHEN o = 1 THEN t - interval '24 hours' ELSE t END FROM unnest(secret_rotations) WITH ORDINALITY AS r (t, o)) WHERE id = $1`,
      [id],
    );
    expect((await rotate(id)).status).toBe(200);
    expect((await rotate(id)).status).toBe(429);
  });

  it('the developer console and the console API count together; the page answers 429 with Retry-After and says why, in both languages', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const added = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints`, { url: URL, environment: 'sandbox' });
    expect([added.postStatus, added.status]).toEqual([303, 200]);
    const read = await app.console().get(`/console/v1/apps/${appId}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    const id = (read.body.webhook_endpoints as Array<{ id: string; url: string }>).find((e) => e.url === URL)?.id as string;
    // Rotate secret asks first (CONTRACT §21): each rotation on the page is its confirmation page, then the confirmed post
    const onPage = async () => {
      const ask = await d.driver.get(`/developers/apps/${appId}/webhook-endpoints/rotate-secret?endpoint_id=${id}`);
      expect(ask.status).toBe(200);
      return d.driver.post(`/developers/apps/${appId}/webhook-endpoints/rotate-secret`, { endpoint_id: id, confirmation: confirmationOf(ask.text) });
    };
    expect((await onPage()).status).toBe(303);
    expect((await rotate(id)).status).toBe(200);
    expect((await onPage()).status).toBe(303);
    const refused = await onPage();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(24 * 3600 - 120);
    expect(refused.text).toMatch(
      /<p class="error" role="alert"[^>]*id="rotations-error">This endpoint&#39;s secret was rotated 3 times within 24 hours, the most there may be\. Try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.<\/p>/,
    );
    expect(refused.text).not.toContain('id="issued-value"');
    d.driver.language = 'da';
    const danish = await onPage();
    expect(danish.status).toBe(429);
    expect(danish.text).toContain('Endepunktets hemmelighed er skiftet 3 gange inden for 24 timer');
    expect((await rotate(id)).status).toBe(429);
  });
});

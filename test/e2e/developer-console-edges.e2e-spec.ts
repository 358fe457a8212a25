import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, type Developer } from '../support/developer-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const confirmationOf = (html: string) => /name="confirmation" value="([^"]+)"/.exec(html)?.[1] as string;
const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1];
const CONFIRMATION_USED = 'Nothing was done: that confirmation was used already.';

/**
 * CONTRACT §21 "Developer console": Rotate secret, Recover and Submit for review ask first (a confirmation
 * page whose form works once), Submit for review says that approval asks every owner to consent again,
 * and an empty list of redirect URIs is refused (422).
 */
describe('developer console at the edges (CONTRACT §21)', () => {
  let app: TestApp;
  let db: DataSource;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 10, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  /** A sandbox endpoint added on the page; its id from the store. */
  async function anEndpoint(d: Developer, appId: string): Promise<string> {
    const url = `http://127.0.0.1:9/hook-${randomUUID()}`;
    const added = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints`, { url, environment: 'sandbox' });
    expect(added.postStatus).toBe(303);
    return (await db.query(`SELECT id FROM webhook_endpoints WHERE url = $1`, [url]))[0].id as string;
  }

  it('refuses to save an empty list of redirect URIs (422, the reason beside the field); the URIs stay', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    await d.driver.get(`/developers/apps/${id}`);
    expect((await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://app.example/cb' })).status).toBe(303);
    await d.driver.get(`/developers/apps/${id}`);
    const empty = await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: ' \r\n \r\n' });
    expect(empty.status).toBe(422);
    expect(empty.text).toMatch(/id="redirect_uris-error">Redirect URIs: at least one is required/);
    expect((await db.query(`SELECT redirect_uris FROM oauth_clients WHERE app_id = $1`, [id]))[0].redirect_uris).toEqual(['https://app.example/cb']);
    // in Danish too
    d.driver.language = 'da';
    await d.driver.get(`/developers/apps/${id}`);
    const tom = await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: '' });
    expect(tom.status).toBe(422);
    expect(tom.text).toMatch(/id="redirect_uris-error">Redirect-URI’er: mindst én skal angives/);
  });

  it('Rotate secret asks first; its confirmation works once (a second post rotates nothing)', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const endpointId = await anEndpoint(d, appId);
    const page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    // the page's button asks (GET), it does not rotate
    expect(page).not.toContain(`method="post" action="/developers/apps/${appId}/webhook-endpoints/rotate-secret"`);
    expect(page).toContain(`method="get" action="/developers/apps/${appId}/webhook-endpoints/rotate-secret"`);
    const ask = await d.driver.get(`/developers/apps/${appId}/webhook-endpoints/rotate-secret?endpoint_id=${endpointId}`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Rotate signing secret?');
    expect(ask.text).toContain('stays valid for 24 hours');
    const secretOf = async () => (await db.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpointId]))[0].secret as string;
    const before = await secretOf();
    const form = { endpoint_id: endpointId, confirmation: confirmationOf(ask.text) };
    const rotated = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints/rotate-secret`, form);
    expect(issued(rotated.text)).toMatch(/^whsec_/);
    const after = await secretOf();
    expect(after).not.toBe(before);
    const replay = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints/rotate-secret`, form);
    expect(replay.postStatus).toBe(303);
    expect(issued(replay.text)).toBeUndefined();
    expect(replay.text).toContain(CONFIRMATION_USED);
    expect(await secretOf()).toBe(after);
  });

  it('Recover asks first with the Since typed; its confirmation works once', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d);
    const endpointId = await anEndpoint(d, appId);
    const since = new Date(clock.nowMs() - 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    const ask = await d.driver.get(`/developers/apps/${appId}/webhook-endpoints/recover?endpoint_id=${endpointId}&since=${encodeURIComponent(since)}`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Recover deliveries?');
    expect(ask.text).toContain(`name="since" value="${since}"`);
    const uses = async () =>
      Number((await db.query(`SELECT count(*)::int AS n FROM developer_quota_events q JOIN developers d ON d.id = q.developer_id WHERE d.email = $1 AND q.kind = 'resend'`, [d.email]))[0].n);
    const before = await uses();
    const form = { endpoint_id: endpointId, since, confirmation: confirmationOf(ask.text) };
    const recovered = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints/recover`, form);
    expect(recovered.postStatus).toBe(303);
    expect(recovered.text).not.toContain(CONFIRMATION_USED);
    expect(await uses()).toBe(before + 1);
    const replay = await postAndFollow(d.driver, `/developers/apps/${appId}/webhook-endpoints/recover`, form);
    expect(replay.text).toContain(CONFIRMATION_USED);
    expect(await uses()).toBe(before + 1);
  });

  it('Submit for review asks first, says that approval asks every owner to consent again (en, da), and submits once', async () => {
    const d = await aDeveloper(app, clock);
    const appId = await anAppOnThePage(d, 'Kassebog');
    const page = (await d.driver.get(`/developers/apps/${appId}`)).text;
    expect(page).toContain(`method="get" action="/developers/apps/${appId}/revisions"`);
    const ask = await d.driver.get(`/developers/apps/${appId}/revisions`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('every owner who connected Kassebog is asked to consent again');
    d.driver.language = 'da';
    const spørg = await d.driver.get(`/developers/apps/${appId}/revisions`);
    expect(spørg.text).toContain('bliver hver ejer, der har forbundet Kassebog, bedt om at give samtykke igen');
    const revisions = async () => Number((await db.query(`SELECT count(*)::int AS n FROM app_revisions WHERE app_id = $1`, [appId]))[0].n);
    const form = { confirmation: confirmationOf(spørg.text) };
    const submitted = await postAndFollow(d.driver, `/developers/apps/${appId}/revisions`, form);
    expect(submitted.postStatus).toBe(303);
    expect(await revisions()).toBe(1);
    const replay = await postAndFollow(d.driver, `/developers/apps/${appId}/revisions`, form);
    expect(replay.text).toContain('Der skete ikke noget: den bekræftelse er allerede brugt.');
    expect(await revisions()).toBe(1);
  });
});

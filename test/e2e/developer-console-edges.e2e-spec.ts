import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { postAndFollow } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, confirmationOf, type Developer } from '../support/developer-fixtures';
import { aJournal, SANDBOX } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

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
    // the reason in an alert that takes focus (CONTRACT §21)
    expect(empty.text).toMatch(/<p class="error" role="alert" tabindex="-1" autofocus id="redirect_uris-error">Redirect URIs: at least one is required/);
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
      Number(
        (
          await db.query(
            `SELECT count(*)::int AS n FROM developer_quota_events q JOIN developers d ON d.id = q.developer_id WHERE d.email = $1 AND q.kind = 'resend'`,
            [d.email],
          )
        )[0].n,
      );
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

  /** The account ids of the Sandbox section's table. */
  const accountIds = (html: string) => {
    const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
    return [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
  };
  const statusOf = (html: string) => /<p class="status" role="status" id="status">([^<]*)</.exec(html)?.[1];

  it('New sandbox token keeps the previous one working 24 hours by default, 1 hour, or not at all, and says until when', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const accounts = accountIds((await d.driver.get(`/developers/apps/${id}`)).text);
    const prepare = async (t: string) =>
      (await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${t}`).send(aJournal(accounts))).status;
    const project = (await db.query(`SELECT sandbox_project_id AS p FROM developer_apps WHERE app_id = $1`, [id]))[0].p as string;
    const hoursLeft = async () =>
      Number(
        (await db.query(`SELECT EXTRACT(EPOCH FROM (previous_generation_until - now())) / 3600 AS h FROM sandbox_projects WHERE id = $1`, [project]))[0].h,
      );
    const ask = await d.driver.get(`/developers/apps/${id}/sandbox-token`);
    // the choice, 24 hours already made
    expect(ask.text).toMatch(/<input type="radio" id="keep_previous-24h" name="keep_previous" value="24h" checked>/);
    expect(ask.text).toContain('value="1h"');
    expect(ask.text).toContain('value="now"');
    const first = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, { confirmation: confirmationOf(ask.text) })).text) as string;

    // the default: 24 hours, and the page says until when
    const made = await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {});
    const second = issued(made.text) as string;
    expect(statusOf(made.text)).toMatch(/^The previous sandbox token works until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
    expect(await hoursLeft()).toBeGreaterThan(23.9);
    expect(await hoursLeft()).toBeLessThanOrEqual(24);
    expect([await prepare(first), await prepare(second)]).toEqual([200, 200]);

    // 1 hour
    const third = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, { keep_previous: '1h' })).text) as string;
    expect(await hoursLeft()).toBeGreaterThan(0.99);
    expect(await hoursLeft()).toBeLessThanOrEqual(1);
    expect([await prepare(first), await prepare(second), await prepare(third)]).toEqual([401, 200, 200]);
    // its hour over (the database's clock), the previous token stops
    await db.query(`UPDATE sandbox_projects SET previous_generation_until = now() - interval '1 second' WHERE id = $1`, [project]);
    expect([await prepare(second), await prepare(third)]).toEqual([401, 200]);

    // not at all
    const ended = await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, { keep_previous: 'now' });
    expect(statusOf(ended.text)).toBe('The previous sandbox token has stopped working.');
    expect([await prepare(third), await prepare(issued(ended.text) as string)]).toEqual([401, 200]);

    // anything else: 400, no token made
    const generations = async () => Number((await db.query(`SELECT count(*)::int AS n FROM sandbox_generations WHERE project_id = $1`, [project]))[0].n);
    const before = await generations();
    expect((await d.driver.post(`/developers/apps/${id}/sandbox-token`, { keep_previous: 'forever' })).status).toBe(400);
    expect(await generations()).toBe(before);
  });

  it('New client secret asks without claiming a current secret the developer was never shown, in both languages (issue 45)', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    await d.driver.get(`/developers/apps/${id}`);
    // saving redirect URIs registers the client; no secret has been shown to the developer yet
    await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://app.example/cb' });
    const en = (await d.driver.get(`/developers/apps/${id}/client-secret`)).text;
    expect(en).not.toContain('Choose how long the current one keeps working');
    expect(en).not.toContain('The current client secret keeps working for');
    expect(en).toContain('If your app already uses a client secret, choose how long it keeps working');
    d.driver.language = 'da';
    const da = (await d.driver.get(`/developers/apps/${id}/client-secret`)).text;
    expect(da).not.toContain('Vælg, hvor længe den nuværende virker videre');
    expect(da).toContain('Hvis din app allerede bruger en klienthemmelighed, så vælg, hvor længe den virker videre');
  });

  it('New client secret keeps the previous one working as chosen (the token endpoint takes both), in Danish too', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    await d.driver.get(`/developers/apps/${id}`);
    await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://app.example/cb' });
    // a client authenticated: 400 invalid_grant for a made-up code; a wrong secret: 401 invalid_client
    const tokenCall = async (secret: string) =>
      (
        await app
          .partner()
          .post('/oauth/token')
          .type('form')
          .send({
            grant_type: 'authorization_code',
            code: 'made-up',
            redirect_uri: 'https://app.example/cb',
            code_verifier: 'x'.repeat(43),
            client_id: id,
            client_secret: secret,
          })
      ).status;
    const a = issued((await postAndFollow(d.driver, `/developers/apps/${id}/client-secret`, { keep_previous: 'now' })).text) as string;
    d.driver.language = 'da';
    await d.driver.get(`/developers/apps/${id}/client-secret`);
    const madeB = await postAndFollow(d.driver, `/developers/apps/${id}/client-secret`, { keep_previous: '24h' });
    const b = issued(madeB.text) as string;
    expect(statusOf(madeB.text)).toMatch(/^Den forrige klienthemmelighed virker indtil \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
    expect([await tokenCall(a), await tokenCall(b)]).toEqual([400, 400]);
    const c = issued((await postAndFollow(d.driver, `/developers/apps/${id}/client-secret`, { keep_previous: 'now' })).text) as string;
    expect([await tokenCall(a), await tokenCall(b), await tokenCall(c)]).toEqual([401, 401, 400]);
  });
});

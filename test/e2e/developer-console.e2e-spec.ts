import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeveloperRepository } from '../../src/modules/developers/domain/developer.repository';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { Transactions } from '../../src/shared/database/transactions';
import { RequestLogRecorder } from '../../src/modules/developers';
import { PageDriver, postAndFollow, signInTry } from '../support/consent-fixtures';
import { aDeveloper, anAppOnThePage, confirmationOf, DEV_PASSWORD } from '../support/developer-fixtures';
import { aJournal, SANDBOX } from '../support/fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

/** CONTRACT §15 over HTTP (the rules a browser does not add to): accounts, forms, isolation, the operator's revisions call. */
describe('developer console (CONTRACT §15)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
  });
  afterAll(() => app.close());

  /** The account ids of the Sandbox section's table. */
  const accountIds = (html: string) => {
    const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
    return [...section.matchAll(/data-label="Account id"><code>([0-9a-f-]{36})<\/code>/g)].map((m) => m[1]);
  };
  const issued = (html: string) => /id="issued-value">([^<]+)</.exec(html)?.[1] as string;

  it('redirects /developers without a session to the sign-in page (303)', async () => {
    const res = await app.partner().get('/developers');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/developers/signin');
    const apps = await app.partner().get('/developers/apps');
    expect(apps.status).toBe(303);
  });

  it('signs in with a fresh code, refuses a reused or wrong code alike, and signs out', async () => {
    const d = await aDeveloper(app, clock);
    expect((await d.driver.get('/developers/apps')).status).toBe(200);
    const other = new PageDriver(app);
    await other.get('/developers/signin');
    const before = other.cookies.get('developer_session');
    // the code of the confirm's step again: refused (one use per code)
    const reused = await signInTry(other, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    expect(reused.answer).toBe('refused');
    const wrongPassword = await signInTry(other, '/developers/signin', {
      email: d.email,
      password: 'not the password!',
      code: totpCodeAt(d.secret, clock.nowMs() + 30_000),
    });
    expect(wrongPassword.answer).toBe('refused');
    expect(wrongPassword.text).toContain('Sign-in failed');
    expect(reused.text.replace(/value="[^"]*"/g, '')).toBe(wrongPassword.text.replace(/value="[^"]*"/g, ''));
    clock.advance(30_000);
    const ok = await other.post('/developers/signin', { email: d.email.toUpperCase(), password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/developers/apps');
    expect(other.cookies.get('developer_session')).not.toBe(before); // the id rotates at sign-in
    await other.get('/developers/apps');
    const out = await other.post('/developers/signout', {});
    expect(out.status).toBe(303);
    other.cookies.set('developer_session', other.cookies.get('developer_session') ?? 'gone');
    expect((await other.get('/developers/apps')).status).toBe(303);
  });

  it('takes a TOTP step only once in the store: a step not later than the last accepted one is refused (the repository counted 2 rows)', async () => {
    const d = await aDeveloper(app, clock);
    const db = app.apps.partner.get(DataSource);
    const [row] = await db.query(`SELECT id, totp_last_step::int AS step FROM developers WHERE lower(email) = lower($1)`, [d.email]);
    expect(typeof row.step).toBe('number');
    const consume = (step: number) => app.apps.partner.get(Transactions).run((tx) => app.apps.partner.get(DeveloperRepository).consumeStep(tx, row.id, step));
    // the guard under the sign-in's row lock: what a sign-in racing another one with the same code relies on
    expect(await consume(row.step)).toBe(false);
    expect(await consume(row.step - 1)).toBe(false);
    expect(await consume(row.step + 1)).toBe(true);
    expect(await consume(row.step + 1)).toBe(false);
    const [after] = await db.query(`SELECT totp_last_step::int AS step FROM developers WHERE id = $1`, [row.id]);
    expect(after.step).toBe(row.step + 1);
  });

  it('ends a session after 30 minutes idle, and after 12 hours however busy', async () => {
    const idle = await aDeveloper(app, clock);
    clock.advance(29 * 60_000);
    expect((await idle.driver.get('/developers/apps')).status).toBe(200);
    clock.advance(30 * 60_000);
    expect((await idle.driver.get('/developers/apps')).status).toBe(303);
    const busy = await aDeveloper(app, clock);
    let statuses: number[] = [];
    for (let elapsed = 0; elapsed < 12 * 60 + 40; elapsed += 20) {
      statuses.push((await busy.driver.get('/developers/apps')).status);
      clock.advance(20 * 60_000);
    }
    statuses = [...new Set(statuses)];
    expect(statuses).toEqual([200, 303]);
  });

  it('locks an email for 15 minutes after 5 failed sign-ins, right code or not', async () => {
    const d = await aDeveloper(app, clock);
    const other = new PageDriver(app);
    await other.get('/developers/signin');
    for (let i = 0; i < 5; i++) {
      expect((await signInTry(other, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: '000000' })).answer).toBe('refused');
    }
    clock.advance(30_000);
    const locked = await signInTry(other, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    expect(locked.answer).toBe('locked');
  });

  // the same answer for an email that has an account, and the sign-up through the email's link: developer-accounts.e2e-spec.ts

  it('answers a bad field with the form again (422) and the error beside it', async () => {
    const driver = new PageDriver(app);
    await driver.get('/developers/signup');
    const bad = await driver.post('/developers/signup', { email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="email-error"');
    // the password's error is the link's page's (CONTRACT §20): developer-accounts.e2e-spec.ts
    const d = await aDeveloper(app, clock);
    await d.driver.get('/developers/apps/new');
    const noName = await d.driver.post('/developers/apps', { name: '   ' });
    expect(noName.status).toBe(422);
    expect(noName.text).toContain('id="name-error"');
    const id = await anAppOnThePage(d);
    await d.driver.get(`/developers/apps/${id}`);
    const badUri = await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://ok.example/cb\nftp://nope/cb' });
    expect(badUri.status).toBe(422);
    expect(badUri.text).toMatch(/id="redirect_uris-error">Redirect URIs line 2:/);
    const badUrl = await d.driver.post(`/developers/apps/${id}/webhook-endpoints`, { url: 'not a url', environment: 'sandbox' });
    expect(badUrl.status).toBe(422);
    expect(badUrl.text).toContain('id="url-error"');
    const badEnv = await d.driver.post(`/developers/apps/${id}/webhook-endpoints`, { url: 'http://127.0.0.1:9/x', environment: 'staging' });
    expect(badEnv.status).toBe(422);
    expect(badEnv.text).toContain('id="environment-error"');
  });

  it("says why a field was refused in the page's language: in Danish, no English detail of the API (CONTRACT §18)", async () => {
    const d = await aDeveloper(app, clock);
    d.driver.language = 'da';
    const id = await anAppOnThePage(d);
    const errorOf = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
    await d.driver.get(`/developers/apps/${id}`);
    const badUri = await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://ok.example/cb\nftp://nope/cb' });
    expect(badUri.status).toBe(422);
    expect(errorOf(badUri.text, 'redirect_uris-error')).toBe('Redirect-URI’er linje 2: skal være https (http kun på localhost eller 127.0.0.1).');
    const fragment = await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://ok.example/cb#x' });
    expect(errorOf(fragment.text, 'redirect_uris-error')).toBe('Redirect-URI’er linje 1: må ikke have et fragment (#).');
    const credentials = await d.driver.post(`/developers/apps/${id}/webhook-endpoints`, { url: 'https://user:pw@hooks.example/x', environment: 'sandbox' });
    expect(credentials.status).toBe(422);
    expect(errorOf(credentials.text, 'url-error')).toBe('URL: må ikke indeholde brugernavn eller adgangskode.');
    const scheme = await d.driver.post(`/developers/apps/${id}/webhook-endpoints`, { url: 'ftp://hooks.example/x', environment: 'sandbox' });
    expect(errorOf(scheme.text, 'url-error')).toBe('URL: skal være en http- eller https-URL.');
    const added = await postAndFollow(d.driver, `/developers/apps/${id}/webhook-endpoints`, { url: 'http://127.0.0.1:9/da', environment: 'sandbox' });
    expect(added.postStatus).toBe(303);
    const endpointId = /id="endpoint-([0-9a-f-]{36})"/.exec(added.text)?.[1] as string;
    const future = await d.driver.post(`/developers/apps/${id}/webhook-endpoints/recover`, { endpoint_id: endpointId, since: '2027-01-01 00:00' });
    expect(future.status).toBe(422);
    expect(errorOf(future.text, `since-error-${endpointId}`)).toBe('Siden må ikke ligge i fremtiden.');
    const garbage = await d.driver.post(`/developers/apps/${id}/webhook-endpoints/recover`, { endpoint_id: endpointId, since: 'sidste tirsdag' });
    expect(errorOf(garbage.text, `since-error-${endpointId}`)).toMatch(/^Siden skal være et ISO 8601-tidspunkt med tidszone/);
    await app.apps.partner.get(DataSource).query(`UPDATE webhook_endpoints SET disabled_at = now() WHERE id = $1`, [endpointId]);
    const disabled = await d.driver.post(`/developers/apps/${id}/webhook-endpoints/recover`, { endpoint_id: endpointId, since: '2026-11-20 11:00' });
    expect(disabled.status).toBe(409);
    expect(errorOf(disabled.text, `since-error-${endpointId}`)).toBe('Modtageren er deaktiveret: aktivér den først, og send så igen.');
    // none of the API's English details on any of these pages
    for (const page of [badUri, fragment, credentials, scheme, future, garbage, disabled])
      expect(page.text).not.toMatch(/must (not )?be|must not|enable it first/);
  });

  it('refuses a POST without a valid CSRF token (403) and changes nothing; pages carry the §11 headers', async () => {
    const d = await aDeveloper(app, clock);
    const page = await d.driver.get('/developers/apps');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toContain('no-store');
    const res = await d.driver.post('/developers/apps', { name: 'Sneaky' }, { csrf: null });
    expect(res.status).toBe(403);
    expect((await d.driver.get('/developers/apps')).text).not.toContain('Sneaky');
  });

  it('shows an app only to its developer (404 for another), with both base addresses and a sandbox token that works until a new one', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d, 'Kasse & Co');
    const page = await d.driver.get(`/developers/apps/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('http://localhost:3000/api/partner/sandbox/v1');
    expect(page.text).toContain('http://localhost:3000/api/partner/v1');
    expect(page.text).toContain('Kasse &amp; Co');
    const accounts = accountIds(page.text);
    expect(accounts.length).toBeGreaterThanOrEqual(8);
    // CONTRACT §18: New sandbox token asks first; Confirm posts; the 303 leads to the section, which shows the token once
    const ask = await d.driver.get(`/developers/apps/${id}/sandbox-token`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('>Confirm</button>');
    expect(ask.text).toContain('>Cancel</button>');
    const first = await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {});
    expect([first.postStatus, first.postLocation]).toEqual([303, `/developers/apps/${id}#sandbox`]);
    const token = issued(first.text);
    expect(token).toMatch(/^hsk_/);
    const prepare = (t: string) => app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${t}`).send(aJournal(accounts));
    expect((await prepare(token)).status).toBe(200);
    const second = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, { keep_previous: 'now' })).text);
    expect((await prepare(token)).status).toBe(401);
    expect((await prepare(second)).status).toBe(200);
    expect((await d.driver.get(`/developers/apps/${id}`)).text).not.toContain(second);

    const stranger = await aDeveloper(app, clock);
    expect((await stranger.driver.get(`/developers/apps/${id}`)).status).toBe(404);
    expect((await stranger.driver.get('/developers/apps')).text).not.toContain(id);
    expect((await stranger.driver.post(`/developers/apps/${id}/sandbox-token`, {})).status).toBe(404);
  });

  it("lists the sandbox accounts in natural order, the partner read's order (CONTRACT §7: 7000 before 12000, then as stored text)", async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const [{ organization_id: org }] = await app.apps.dataSource.query(
      `SELECT sandbox_organization_id AS organization_id FROM developer_apps WHERE app_id = $1`,
      [id],
    );
    for (const number of ['b', 'B', 'a', 'A-10', 'A-9', '1000_1', '1000A']) {
      const res = await app
        .console()
        .post(`/console/v1/organizations/${org}/accounts`)
        .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
        .send({ number, name: `Konto ${number}` });
      expect(res.status).toBe(201);
    }
    const numbers = (html: string) => {
      const section = html.slice(html.indexOf('id="sandbox"'), html.indexOf('id="oauth"'));
      return [...section.matchAll(/<tr><td data-label="Number">([^<]*)<\/td>/g)].map((m) => m[1]);
    };
    const listed = numbers((await d.driver.get(`/developers/apps/${id}`)).text);
    expect(listed).toEqual([
      '1000',
      '1000A',
      '1000_1',
      '1100',
      '5000',
      '7000',
      '7500',
      '12000',
      '13000',
      '14500',
      '14600',
      '15000',
      'A-9',
      'A-10',
      'B',
      'a',
      'b',
    ]);
    const token = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {})).text);
    const read = await app.partner().get(`${SANDBOX}/accounts`).set('Authorization', `Bearer ${token}`);
    expect(read.body.data.map((a: { number: string }) => a.number)).toEqual(listed);
  });

  it('makes one token and one client secret of a confirmation form posted twice (a double click, a replay): the second does nothing and says so (CONTRACT §18)', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const db = app.apps.partner.get(DataSource);
    const generations = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*)::int AS n FROM sandbox_generations g JOIN developer_apps d ON d.sandbox_project_id = g.project_id WHERE d.app_id = $1`,
            [id],
          )
        )[0].n,
      );
    const before = await generations();
    const ask = await d.driver.get(`/developers/apps/${id}/sandbox-token`);
    const form = { confirmation: confirmationOf(ask.text) };
    expect(form.confirmation).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const first = await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, form);
    expect([first.postStatus, issued(first.text)?.slice(0, 4)]).toEqual([303, 'hsk_']);
    const replay = await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, form);
    expect([replay.postStatus, replay.postLocation]).toEqual([303, `/developers/apps/${id}#sandbox`]);
    expect(issued(replay.text)).toBeUndefined();
    expect(replay.text).toContain('Nothing was done: that confirmation was used already.');
    expect(await generations()).toBe(before + 1);
    // a made-up or foreign confirmation does nothing either
    expect((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, { confirmation: 'x'.repeat(24) })).text).toContain('Nothing was done');
    expect(await generations()).toBe(before + 1);

    // New client secret: the secret the developer copied keeps working after the replay
    await d.driver.post(`/developers/apps/${id}/redirect-uris`, { redirect_uris: 'https://app.example/cb' });
    const secretHash = async () => (await db.query(`SELECT secret_hash FROM oauth_clients WHERE app_id = $1`, [id]))[0].secret_hash as string;
    const askSecret = await d.driver.get(`/developers/apps/${id}/client-secret`);
    const secretForm = { confirmation: confirmationOf(askSecret.text) };
    const made = await postAndFollow(d.driver, `/developers/apps/${id}/client-secret`, secretForm);
    expect(issued(made.text)).toMatch(/^hcs_/);
    const hash = await secretHash();
    const again = await postAndFollow(d.driver, `/developers/apps/${id}/client-secret`, secretForm);
    expect([again.postStatus, issued(again.text)]).toEqual([303, undefined]);
    expect(await secretHash()).toBe(hash);
    // the same form without its CSRF token: 403, nothing made
    const third = await d.driver.get(`/developers/apps/${id}/client-secret`);
    expect((await d.driver.post(`/developers/apps/${id}/client-secret`, { confirmation: confirmationOf(third.text) }, { csrf: null })).status).toBe(403);
    expect(await secretHash()).toBe(hash);
  });

  it("lists the app's sandbox entries newest first with their attachments (CONTRACT §15, §17)", async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const empty = (await d.driver.get(`/developers/apps/${id}`)).text;
    expect(empty).toContain('<h2 id="h-sandbox-entries">Sandbox entries</h2>');
    expect(empty).toContain('No entries yet.');
    const accounts = accountIds(empty);
    const token = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {})).text);
    const post = async (description: string) => {
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', randomUUID())
        .send({ ...aJournal(accounts, { posting_date: '2026-02-03' }), description });
      expect(res.status).toBe(201);
      return res.body as { id: string; voucher_number: number };
    };
    const first = await post('Første bilag');
    const second = await post('Andet bilag');
    const attached = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${first.id}/attachments`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/pdf')
      .set('Content-Disposition', 'attachment; filename="kvittering <1>.pdf"')
      .send(Buffer.from('%PDF-1.4\n'));
    expect(attached.status).toBe(201);
    const page = (await d.driver.get(`/developers/apps/${id}`)).text;
    const section = page.slice(page.indexOf('id="sandbox-entries"'), page.indexOf('id="request-log"'));
    const rows = [
      ...section.matchAll(/<td data-label="Voucher">([^<]+)<\/td>.*?<td data-label="Description">([^<]*)<\/td>.*?<td data-label="Attachments">(.*?)<\/td>/g),
    ].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual([
      [`2026-${second.voucher_number}`, 'Andet bilag', 'none'],
      [`2026-${first.voucher_number}`, 'Første bilag', '<ul><li>kvittering &lt;1&gt;.pdf (application/pdf, 9 bytes)</li></ul>'],
    ]);
  });

  it('shows a reversal among the sandbox entries as one, with the voucher it reverses (CONTRACT §19)', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const accounts = accountIds((await d.driver.get(`/developers/apps/${id}`)).text);
    const token = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {})).text);
    const posted = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ ...aJournal(accounts, { posting_date: '2026-02-03' }), description: 'Forkert' });
    expect(posted.status).toBe(201);
    const reversal = await app
      .partner()
      .post(`${SANDBOX}/journal/entries/${posted.body.id}/reversal`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ posting_date: '2026-02-04' });
    expect(reversal.status).toBe(201);
    const page = (await d.driver.get(`/developers/apps/${id}`)).text;
    const section = page.slice(page.indexOf('id="sandbox-entries"'), page.indexOf('id="request-log"'));
    const rows = [...section.matchAll(/<td data-label="Voucher">([^<]+)<\/td>.*?<td data-label="Description">(.*?)<\/td>/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([
      [
        `2026-${reversal.body.voucher_number}`,
        `Tilbageførsel af bilag 2026-${posted.body.voucher_number} <span class="hint">(reverses 2026-${posted.body.voucher_number})</span>`,
      ],
      [`2026-${posted.body.voucher_number}`, 'Forkert'],
    ]);
  });

  it('lists a refused prepare in the request log with its pointers, never the body', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d);
    const token = issued((await postAndFollow(d.driver, `/developers/apps/${id}/sandbox-token`, {})).text);
    const refused = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${token}`)
      .send({ posting_date: 'secret-looking-value', lines: [] });
    expect(refused.status).toBe(400);
    await app.apps.partner.get(RequestLogRecorder, { strict: false }).settled();
    const page = (await d.driver.get(`/developers/apps/${id}`)).text;
    expect(page).toContain(`POST ${SANDBOX}/journal/prepare`);
    expect(page).toContain(refused.body.request_id);
    for (const e of refused.body.errors as Array<{ pointer: string }>) expect(page).toContain(e.pointer);
    expect(page).not.toContain('secret-looking-value');
    expect(page).not.toContain(token);
  });

  it('lists a submitted revision in GET /console/v1/revisions?pending=true until the operator approves it; the page then shows it approved', async () => {
    const d = await aDeveloper(app, clock);
    const id = await anAppOnThePage(d, 'Review me');
    await d.driver.get(`/developers/apps/${id}`);
    expect((await d.driver.post(`/developers/apps/${id}/revisions`, {})).status).toBe(303);
    const pending = await app.console().get('/console/v1/revisions?pending=true').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(pending.status).toBe(200);
    const mine = (pending.body as Array<{ app_id: string; app_name: string; revision_id: string; number: number; submitted_at: string }>).find(
      (r) => r.app_id === id,
    );
    expect(mine).toMatchObject({ app_name: 'Review me', number: 1 });
    expect(new Date(mine?.submitted_at as string).toISOString()).toBe(mine?.submitted_at);
    expect((await d.driver.get(`/developers/apps/${id}`)).text).toContain('not approved');
    const approve = await app
      .console()
      .post(`/console/v1/apps/${id}/revisions/${mine?.revision_id}/approve`)
      .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
      .send({});
    expect(approve.status).toBe(200);
    const after = await app.console().get('/console/v1/revisions?pending=true').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect((after.body as Array<{ app_id: string }>).some((r) => r.app_id === id)).toBe(false);
    expect((await d.driver.get(`/developers/apps/${id}`)).text).toContain('badge ok');
    const noFlag = await app.console().get('/console/v1/revisions').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
    expect(noFlag.status).toBe(400);
  });

  it('keeps sign-up closed under DEVELOPER_SIGNUP=closed (404, no account)', async () => {
    const closed = await createTestApp({ developerSignup: 'closed' }, { clock });
    try {
      expect((await closed.partner().get('/developers/signup')).status).toBe(404);
      const post = await closed.partner().post('/developers/signup').type('form').send('email=a%40b.dk');
      expect(post.status).toBe(404);
      expect((await closed.partner().get('/developers/signin')).status).toBe(200);
    } finally {
      await closed.close();
    }
  });
});

/**
 * The developer console's sign-in shares the owners' rules (CONTRACT §11, §12, §15): no session row before
 * a form is posted, and failures counted per (email, client address), so a stranger elsewhere cannot lock
 * the developer out.
 */
describe('developer console: what strangers can do (CONTRACT §12, §15)', () => {
  let app: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 10));
  const sessions = async () => Number((await app.apps.dataSource.query('SELECT count(*) AS n FROM web_sessions'))[0].n);

  beforeAll(async () => {
    // the peer is 127.0.0.1 (loopback): X-Forwarded-For names the client
    app = await createTestApp({ trustProxy: 'loopback' }, { clock });
  });
  afterAll(() => app.close());

  it('writes no session row for cookieless views of the sign-in and sign-up pages', async () => {
    const before = await sessions();
    for (let i = 0; i < 5; i++) {
      expect((await app.partner().get('/developers/signin')).status).toBe(200);
      expect((await app.partner().get('/developers/signup')).status).toBe(200);
    }
    expect(await sessions()).toBe(before);
  });

  it('locks the email from the address that failed, not from another', async () => {
    const d = await aDeveloper(app, clock);
    const stranger = new PageDriver(app);
    stranger.headers = { 'X-Forwarded-For': '198.51.100.7' };
    await stranger.get('/developers/signin');
    for (let i = 0; i < 5; i++) {
      expect((await signInTry(stranger, '/developers/signin', { email: d.email, password: 'not the password!', code: '000000' })).answer).toBe('refused');
    }
    clock.advance(30_000);
    expect(
      (await signInTry(stranger, '/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) })).answer,
    ).toBe('locked');
    const owner = new PageDriver(app);
    owner.headers = { 'X-Forwarded-For': '192.0.2.44' };
    await owner.get('/developers/signin');
    const ok = await owner.post('/developers/signin', { email: d.email, password: DEV_PASSWORD, code: totpCodeAt(d.secret, clock.nowMs()) });
    expect(ok.status).toBe(303);
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { RequestLogRecorder } from '../../src/modules/developers';
import { captureLog, checkAtTwoWidths, launchChromium, screenshotsAtTwoWidths } from '../support/browser';
import { PASSWORD, pkcePair } from '../support/consent-fixtures';
import { aJournal, PRODUCTION, SANDBOX } from '../support/fixtures';
import { aProductionOrganization, consolePost, ManualClock } from '../support/production-fixtures';
import { SmtpInbox, signupLinkIn } from '../support/smtp-inbox';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

const DEV_PASSWORD = 'udvikler hest batteri 42';
const ISSUER = 'http://localhost:3000';
/** A journey of many pages and argon2 hashes: minutes on a loaded machine with shared cores. */
const SLOW = 240_000;

/**
 * The developer console (CONTRACT §15) in a real browser (Debian's Chromium through playwright-core):
 * what a partner developer sees and does, from sign-up to a production call, with screenshots at 1280
 * and 390 px for a person to look at.
 */
describe('developer console in a real browser (CONTRACT §15)', () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: Server;
  let callback: Server;
  let inbox: SmtpInbox;
  let base: string;
  let receiverUrl: string;
  let callbackUri: string;
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  const clock = new ManualClock(Date.now());
  const logLines: string[] = [];
  /** every page's HTML, with the secrets each issued */
  const pages: string[] = [];
  const secrets = new Map<string, number>(); // secret → on how many pages it may appear (the one that issued it, or none)
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    callback = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><h1>Back at the app</h1>'),
    );
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    callbackUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    // sign-up proves the email through a real SMTP server on 127.0.0.1 (issue 35)
    inbox = await new SmtpInbox().start();
    app = await createTestApp({ logLevel: 'info', publicOrigin: ISSUER, smtpUrl: inbox.url }, { clock, logStream: captureLog(logLines) });
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    // a loaded machine (shared cores) takes long to start PGlite and Chromium
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((r) => receiver?.close(r));
    await new Promise((r) => callback?.close(r));
    await inbox?.stop();
  });
  beforeEach(async () => {
    // the console's English names (CONTRACT §15); the Danish pages are covered by developer-pages.browser-spec.ts
    context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
    page = watched(await context.newPage());
  });

  /** Every developer page the browser gets is kept, for the no-leak check. */
  function watched(p: Page): Page {
    p.on('response', async (r) => {
      if (r.url().startsWith(`${base}/developers`) && (r.headers()['content-type'] ?? '').includes('text/html')) pages.push(await r.text().catch(() => ''));
    });
    return p;
  }
  afterEach(() => context.close());

  /** A screenshot at 1280 px and at 390 px of the page as it is. */
  const shots = (name: string) => screenshotsAtTwoWidths(page, `developers-${name}`);

  function nextCode(secret: string): string {
    clock.advance(30_000);
    return totpCodeAt(secret, clock.nowMs());
  }

  /** The value the last page issued, remembered as a secret only that page may show. */
  async function issued(): Promise<string> {
    const value = (await page.locator('#issued-value').textContent()) as string;
    secrets.set(value, 1);
    return value;
  }

  async function signUp(email: string, shotNames = false): Promise<string> {
    await page.goto(`${base}/developers/signup`);
    if (shotNames) await shots('01-signup');
    await page.getByLabel('Email').fill(email);
    // CONTRACT §20: Create account asks for the email only; the password is chosen on the link's page
    expect(await page.getByLabel('Password').count()).toBe(0);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    if (shotNames) await shots('02-check-email');
    // the link of the email the SMTP server received, opened in the same browser
    const link = signupLinkIn(await inbox.nth(email)) as string;
    expect(link).not.toBeNull();
    // the link's token proves the email: on no page, in no log line (the request log names the path only)
    secrets.set(new URL(link, base).searchParams.get('token') as string, 0);
    await page.goto(`${base}${link}`);
    await page.getByLabel('Authenticator code').waitFor();
    // CONTRACT §18: the secret in groups of four, beside a QR code (SVG drawn on the server)
    const secret = ((await page.locator('#totp-secret').textContent()) as string).replace(/ /g, '');
    expect(await page.locator('.qr svg').count()).toBe(1);
    secrets.set(secret, 1);
    expect(await page.locator('#totp-uri').textContent()).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    if (shotNames) await shots('02-enrol');
    await page.getByLabel('Password').fill(DEV_PASSWORD);
    await page.getByLabel('Authenticator code').fill(nextCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    return secret;
  }

  async function newApp(name: string): Promise<string> {
    await page.getByRole('button', { name: 'New app' }).click();
    await page.getByLabel('App name').fill(name);
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { name: 'Base addresses' }).waitFor();
    return new URL(page.url()).pathname.split('/').pop() as string;
  }

  /** CONTRACT §18: a destructive action asks first; Confirm does it, and the 303 leads back to its section. */
  async function confirmed(button: string | RegExp, section: string): Promise<void> {
    await page.getByRole('button', { name: button }).first().click();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(new RegExp(`#${section}$`));
  }

  const sandboxAccounts = async () => (await page.locator('#sandbox td code').allTextContents()).filter((t) => /^[0-9a-f-]{36}$/.test(t));

  it(
    'sign-up with enrolment, sign-out, sign-in by keyboard with a fresh code; a wrong code fails; 5 failures lock the email',
    async () => {
      const email = `dev-${Date.now()}@example.dk`;
      const secret = await signUp(email, true);
      await shots('03-apps-empty');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await shots('04-signin');
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/developers/signin') && r.request().method() === 'POST') statuses.push(r.status());
      });
      // keyboard only
      await page.getByLabel('Email').focus();
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(DEV_PASSWORD);
      await page.keyboard.press('Tab');
      await page.keyboard.type(nextCode(secret));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Your apps' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(DEV_PASSWORD);
      await page.getByLabel('Authenticator code').fill('123456');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await shots('05-signin-failed');
      for (let i = 0; i < 4; i++) {
        await page.getByLabel('Password').fill(DEV_PASSWORD);
        await page.getByLabel('Authenticator code').fill('000000');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').waitFor();
      }
      await page.getByLabel('Password').fill(DEV_PASSWORD);
      await page.getByLabel('Authenticator code').fill(nextCode(secret));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Too many failed sign-ins').waitFor();
      // CONTRACT §21: a refused sign-in answers 303 back to its form, as a successful one 303 onwards
      expect(statuses).toEqual([303, 303, 303, 303, 303, 303, 303]);
    },
    SLOW,
  );

  it(
    'a new app shows both base addresses; its sandbox token prepares, and a new token supersedes it; another developer gets 404',
    async () => {
      await signUp(`dev-${Date.now()}-a@example.dk`);
      const appId = await newApp('Bogføring & Co');
      const response = await page.goto(`${base}/developers/apps/${appId}`);
      expect(response?.headers()['x-frame-options']).toBe('DENY');
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response?.headers()['cache-control']).toContain('no-store');
      expect(await page.locator('#sandbox-base').textContent()).toBe(`${ISSUER}/api/partner/sandbox/v1`);
      expect(await page.locator('#production-base').textContent()).toBe(`${ISSUER}/api/partner/v1`);
      const accounts = await sandboxAccounts();
      expect(accounts.length).toBeGreaterThanOrEqual(8);
      await confirmed('New sandbox token', 'sandbox');
      const first = await issued();
      expect(first).toMatch(/^hsk_[0-9A-Za-z]{46}$/);
      await shots('06-app-token');
      const prepare = (t: string, body: object = aJournal(accounts)) =>
        app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${t}`).send(body);
      expect((await prepare(first)).status).toBe(200);
      // a reload of the page the 303 led to shows the token no more, and makes no new one
      await page.reload();
      expect(await page.locator('#issued-value').count()).toBe(0);
      // CONTRACT §21: the previous token may stop at once (24 hours is the choice already made)
      await page.getByRole('button', { name: 'New sandbox token' }).first().click();
      expect(await page.getByLabel('24 hours').isChecked()).toBe(true);
      await page.getByLabel('No time: it stops now').check();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/#sandbox$/);
      const second = await issued();
      expect((await prepare(first)).status).toBe(401);
      expect((await prepare(second)).status).toBe(200);

      // a refused prepare appears in the request log, with its pointers
      const refused = await prepare(second, { posting_date: '2026-13-45', lines: [] });
      expect(refused.status).toBe(400);
      await app.apps.partner.get(RequestLogRecorder, { strict: false }).settled();
      // a query of its own: the page is already this app's (…#sandbox after the 303), and a new fragment alone would not load it again
      await page.goto(`${base}/developers/apps/${appId}?status=all#request-log`);
      const row = page.locator('#request-log tbody tr').first();
      await expect(row.textContent()).resolves.toContain(`POST ${SANDBOX}/journal/prepare`);
      for (const e of refused.body.errors as Array<{ pointer: string }>) await expect(row.textContent()).resolves.toContain(e.pointer);
      await expect(row.textContent()).resolves.toContain(refused.body.request_id);
      await shots('07-app');

      // a POST with a forged CSRF token changes nothing (403)
      await page.getByRole('button', { name: 'New sandbox token' }).click();
      await page.locator('form[action$="/sandbox-token"] input[name=_csrf]').evaluate((el) => {
        (el as unknown as { value: string }).value = 'forged';
      });
      const [forged] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/sandbox-token') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Confirm' }).click(),
      ]);
      expect(forged.status()).toBe(403);
      expect((await prepare(second)).status).toBe(200);

      const stranger = await browser.newContext();
      const strangerPage = watched(await stranger.newPage());
      page = strangerPage;
      await signUp(`dev-${Date.now()}-b@example.dk`);
      const other = await strangerPage.goto(`${base}/developers/apps/${appId}`);
      expect(other?.status()).toBe(404);
      await stranger.close();
    },
    SLOW,
  );

  it(
    'redirect URIs and a client secret carry a consent through oauth4webapi to a production call once the operator approves a submitted revision; a webhook endpoint gets a signed delivery, listed, and Resend delivers it again',
    async () => {
      await signUp(`dev-${Date.now()}-c@example.dk`);
      const appId = await newApp('Kassen');
      await page.getByLabel('Redirect URIs').fill('ftp://nope.example/cb');
      await page.getByRole('button', { name: 'Save redirect URIs' }).click();
      await page.locator('#redirect_uris-error').waitFor();
      await shots('08-redirect-uri-error');
      await page.getByLabel('Redirect URIs').fill(callbackUri);
      await page.getByRole('button', { name: 'Save redirect URIs' }).click();
      await page.waitForURL(/#oauth$/);
      await confirmed('New client secret', 'oauth');
      const clientSecret = await issued();
      expect(clientSecret).toMatch(/^hcs_/);
      // CONTRACT §21: Submit for review asks first, and says that approval asks every owner to consent again
      await page.getByRole('button', { name: 'Submit for review' }).click();
      await expect(page.locator('#confirm-question').textContent()).resolves.toContain('is asked to consent again');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/#revisions$/);
      await expect(page.locator('#revisions').textContent()).resolves.toContain('not approved');

      // the operator's side
      const pending = await app.console().get('/console/v1/revisions?pending=true').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`);
      const revision = (pending.body as Array<{ app_id: string; revision_id: string }>).find((r) => r.app_id === appId);
      expect(revision).toBeDefined();
      expect((await consolePost(app, `/apps/${appId}/revisions/${revision?.revision_id}/approve`)).status).toBe(200);
      await page.reload();
      await expect(page.locator('#revisions .badge').textContent()).resolves.toBe('approved');

      // a customer's owner consents; oauth4webapi exchanges the code
      const org = await aProductionOrganization(app, { accounts: 2, name: 'Kunde ApS' });
      const owner = (await consolePost(app, `/organizations/${org.id}/owners`, { email: `owner-${Date.now()}@example.dk`, password: PASSWORD })).body as {
        user_id: string;
        totp_secret: string;
      };
      const email = (
        (await app.console().get(`/console/v1/organizations/${org.id}`).set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)).body as {
          owners: Array<{ email: string }>;
        }
      ).owners[0].email;
      const as: oauth.AuthorizationServer = { issuer: ISSUER, authorization_endpoint: `${base}/oauth/authorize`, token_endpoint: `${base}/oauth/token` };
      const client: oauth.Client = { client_id: appId };
      const { verifier, challenge } = pkcePair();
      const url = new URL(as.authorization_endpoint as string);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: appId,
        redirect_uri: callbackUri,
        scope: 'journal:prepare',
        state: 'dev-state',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(k, v);
      }
      const owners = await browser.newContext();
      const ownerPage = await owners.newPage();
      await ownerPage.goto(url.toString());
      await ownerPage.getByLabel('Email').fill(email);
      await ownerPage.getByLabel('Password').fill(PASSWORD);
      await ownerPage.getByLabel('Authenticator code').fill(nextCode(owner.totp_secret));
      await ownerPage.getByRole('button', { name: 'Sign in' }).click();
      await ownerPage.getByLabel(`${org.accounts[0].number} ${org.accounts[0].name}`).check();
      await ownerPage.getByRole('button', { name: 'Allow access' }).click();
      await ownerPage.waitForURL(/\/callback\?/);
      const params = oauth.validateAuthResponse(as, client, new URL(ownerPage.url()), 'dev-state');
      await owners.close();
      const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(clientSecret), params, callbackUri, verifier, {
        [oauth.allowInsecureRequests]: true,
      });
      const token = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
      secrets.set(token.access_token, 0);
      const production = await app
        .partner()
        .post(`${PRODUCTION}/journal/prepare`)
        .set('Authorization', `Bearer ${token.access_token}`)
        .send(aJournal([org.accounts[0].id]));
      expect(production.status).toBe(200);

      // webhooks: an endpoint added on the page receives a signed delivery of a sandbox posting
      await page.goto(`${base}/developers/apps/${appId}`);
      await page.getByLabel('URL', { exact: true }).fill(receiverUrl);
      // two selects are labelled Environment (the endpoint's and the request log's filter)
      await page.locator('#environment').selectOption('sandbox');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.waitForURL(/#webhooks$/);
      const whsec = await issued();
      // a reload after Add endpoint adds nothing
      await page.reload();
      await expect(page.locator('#webhooks .endpoint').first().textContent()).resolves.toContain(receiverUrl);
      expect(await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE url = $1`, [receiverUrl])).toEqual([{ n: 1 }]);
      expect(whsec).toMatch(/^whsec_/);
      await confirmed('New sandbox token', 'sandbox');
      const sandboxToken = await issued();
      const accounts = await sandboxAccounts();
      const posted = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${sandboxToken}`)
        .set('Idempotency-Key', `dev-${Date.now()}`)
        .send(aJournal(accounts));
      expect(posted.status).toBe(201);
      await eventually(() => received.length >= 1, 'the first delivery', 10_000);
      const first = received[0];
      expect(() => new Webhook(whsec).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
      await page.goto(`${base}/developers/apps/${appId}#webhooks`);
      await eventually(
        async () => {
          await page.reload();
          return ((await page.locator('#webhooks tbody').last().textContent()) ?? '').includes('delivered');
        },
        'the delivery listed',
        10_000,
      );
      await expect(page.locator('#webhooks').textContent()).resolves.toContain(JSON.parse(first.body).data.operation_id);
      await shots('09-app-webhooks');
      await page
        .getByRole('button', { name: /^Resend/ })
        .first()
        .click();
      await page.waitForURL(/#webhooks$/);
      await eventually(() => received.length >= 2, 'the resent delivery', 10_000);
      expect(received[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(received[1].body).toBe(first.body);

      // webhook tools (CONTRACT §15): Send test event, Rotate secret (two signatures), Recover since
      await page
        .getByRole('button', { name: /^Send test event/ })
        .first()
        .click();
      await page.waitForURL(/#webhooks$/);
      await eventually(() => received.some((r) => JSON.parse(r.body).type === 'webhook.test'), 'the test event', 10_000);
      await confirmed(/^Rotate secret/, 'webhooks');
      const rotated = await issued();
      expect(rotated).toMatch(/^whsec_/);
      await shots('10-webhook-secret-rotated');
      const again = await app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${sandboxToken}`)
        .set('Idempotency-Key', `dev-${Date.now()}-2`)
        .send(aJournal(accounts));
      expect(again.status).toBe(201);
      const ofAgain = () => received.filter((r) => JSON.parse(r.body).data?.operation_id === again.body.operation_id);
      await eventually(() => ofAgain().length >= 1, 'the delivery after the rotation', 10_000);
      const signed = ofAgain()[0];
      expect(String(signed.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const s of [rotated, whsec]) expect(() => new Webhook(s).verify(signed.body, signed.headers as Record<string, string>)).not.toThrow();
      await page.goto(`${base}/developers/apps/${appId}#webhooks`);
      await page
        .getByLabel('Since')
        .first()
        .fill(new Date(clock.nowMs() - 3_600_000).toISOString().slice(0, 16).replace('T', ' '));
      await confirmed(/^Recover/, 'webhooks');
      await eventually(() => ofAgain().length >= 2, 'the recovered delivery', 10_000);
      expect(ofAgain()[1].body).toBe(signed.body);
      expect(ofAgain()[1].headers['webhook-id']).toBe(signed.headers['webhook-id']);
      await page.reload();
      await expect(page.locator('#webhooks').textContent()).resolves.toContain('webhook.test');
      await shots('11-webhook-tools');

      await confirmed(/^Delete/, 'webhooks');
      await expect(page.locator('#webhooks').textContent()).resolves.toContain('No endpoints.');
    },
    SLOW,
  );

  it(
    "sign-up → Connect the demo company before any approval (the developer signs in with the account's own email, password and code) → a hat_ call on the production base → the call in the request log; in English and Danish, axe-clean",
    async () => {
      const email = `dev-${Date.now()}-demo@example.dk`;
      const secret = await signUp(email);
      const appId = await newApp('Demoappen');
      await page.getByLabel('Redirect URIs').fill(callbackUri);
      await page.getByRole('button', { name: 'Save redirect URIs' }).click();
      await page.waitForURL(/#oauth$/);
      await confirmed('New client secret', 'oauth');
      const clientSecret = await issued();
      await page.goto(`${base}/developers/apps/${appId}#demo-company`);
      const demo = page.locator('#demo-company');
      await expect(demo.textContent()).resolves.toContain(`Demo ApS – ${email}`);
      const demoId = (await page.locator('#demo-company-id').textContent()) as string;
      await shots('11-demo-company');
      const findings = await checkAtTwoWidths(page, 'developers-11-demo-company-en');
      await page.goto(`${base}/developers/apps/${appId}?lang=da#demo-company`);
      await expect(page.getByRole('heading', { name: 'Demovirksomhed' }).textContent()).resolves.toBe('Demovirksomhed');
      findings.push(...(await checkAtTwoWidths(page, 'developers-11-demo-company-da')));
      await page.goto(`${base}/developers/apps/${appId}?lang=en#demo-company`);
      // each view of the page makes a fresh PKCE pair: the verifier goes with the link of the same view
      const verifier = (await page.locator('#demo-code-verifier').textContent()) as string;

      // the link starts the authorization request; the developer signs in with the console's own credentials
      await page.getByRole('link', { name: 'Connect the demo company' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(DEV_PASSWORD);
      await page.getByLabel('Authenticator code').fill(nextCode(secret));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow access' }).waitFor();
      await expect(page.locator('body').textContent()).resolves.toContain(`Demo ApS – ${email}`);
      await shots('12-demo-consent');
      findings.push(...(await checkAtTwoWidths(page, 'developers-12-demo-consent-en')));
      await page.getByLabel('1000 Salg af varer').check();
      await page.getByRole('button', { name: 'Allow access' }).click();
      await page.waitForURL(/\/callback\?/);
      const as: oauth.AuthorizationServer = { issuer: ISSUER, authorization_endpoint: `${base}/oauth/authorize`, token_endpoint: `${base}/oauth/token` };
      const client: oauth.Client = { client_id: appId };
      const state = new URL(page.url()).searchParams.get('state') as string;
      const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
      const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(clientSecret), params, callbackUri, verifier, {
        [oauth.allowInsecureRequests]: true,
      });
      const token = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
      secrets.set(token.access_token, 0);
      expect(token.access_token).toMatch(/^hat_/);
      expect(token.organization_id).toBe(demoId);

      // a real production call with it, through the listener the browser uses
      const called = await fetch(`${base}${PRODUCTION}/accounts`, { headers: { Authorization: `Bearer ${token.access_token}` } });
      expect(called.status).toBe(200);
      const requestId = called.headers.get('x-request-id') ?? ((await called.json()) as { request_id?: string }).request_id;
      await app.apps.partner.get(RequestLogRecorder, { strict: false }).settled();
      await page.goto(`${base}/developers/apps/${appId}?status=2xx#request-log`);
      const row = page.locator('#request-log tbody tr').first();
      await expect(row.textContent()).resolves.toContain(`GET ${PRODUCTION}/accounts`);
      await expect(row.textContent()).resolves.toContain('200');
      if (requestId) await expect(row.textContent()).resolves.toContain(requestId);
      await shots('13-demo-request-log');
      expect(findings).toEqual([]);
    },
    SLOW,
  );

  it('shows no secret on any page but the one that issued it, and in no log line', () => {
    expect(secrets.size).toBeGreaterThan(4);
    for (const [secret, issuedOn] of secrets) {
      expect([secret.slice(0, 8), pages.filter((html) => html.includes(secret)).length]).toEqual([secret.slice(0, 8), issuedOn]);
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
    }
    expect(logLines.filter((l) => l.includes(DEV_PASSWORD) || l.includes(PASSWORD))).toEqual([]);
  });
});

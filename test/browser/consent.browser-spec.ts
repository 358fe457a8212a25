import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { launchChromium, screenshotsAtTwoWidths } from '../support/browser';
import { aConsentSetup, type ConsentSetup, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { aJournal, PRODUCTION } from '../support/fixtures';
import { aProductionOrganization, consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The owner's pages in a real browser (Debian's Chromium through playwright-core): what a person
 * sees and does, end to end, with a screenshot of each page for a person to look at.
 */
describe('owner consent in a real browser (CONTRACT §11)', () => {
  let app: TestApp;
  let browser: Browser;
  let callback: Server;
  let callbackUri: string;
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    callback = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>App</title><h1>Back at the app</h1>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    app = await createTestApp({}, { clock });
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => callback?.close(resolve));
  });
  beforeEach(async () => {
    // English pages (the owner pages' default is Danish, CONTRACT §18; owner-pages.browser-spec.ts covers both)
    context = await browser.newContext({ locale: 'en-GB' });
    page = await context.newPage();
  });
  afterEach(() => context.close());

  /** The page as it is at 1280 px and at 390 px (`<name>-1280.png`, `<name>-390.png`). */
  const shot = (name: string) => screenshotsAtTwoWidths(page, name);

  async function setup(): Promise<ConsentSetup> {
    return aConsentSetup(app, { accounts: 3, redirectUris: [callbackUri] });
  }

  function authorizeUrl(s: ConsentSetup, challenge: string, scope = 'journal:prepare journal:post products:create operations:read'): string {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: s.client.client_id,
      redirect_uri: callbackUri,
      scope,
      state: 'b-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${base}/oauth/authorize?${q}`;
  }

  function code(s: ConsentSetup): string {
    clock.advance(30_000);
    return totpCodeAt(s.owner.totp_secret, clock.nowMs());
  }

  async function signIn(s: ConsentSetup, password = PASSWORD, name?: string) {
    await page.getByLabel('Email').fill(s.owner.email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Authenticator code').fill(code(s));
    if (name) await shot(name);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function exchange(s: ConsentSetup, location: string, verifier: string) {
    const c = new URL(location).searchParams.get('code') as string;
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${s.client.client_id}:${s.client.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: callbackUri, code_verifier: verifier }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; grant_id: string };
  }

  function prepare(token: string, accounts: string[]) {
    return app.partner().post(`${PRODUCTION}/journal/prepare`).set('Authorization', `Bearer ${token}`).send(aJournal(accounts));
  }

  /** Sign-in, consent with the given accounts, Allow access: the token. */
  async function consent(s: ConsentSetup, options: { accounts: number[]; mandate?: boolean; shots?: boolean }) {
    const { verifier, challenge } = pkcePair();
    await page.goto(authorizeUrl(s, challenge));
    // CONTRACT §21 "one sign-in": an owner signed in by an earlier consent goes straight to the form
    if ((await page.getByLabel('Email').count()) > 0) await signIn(s);
    await page.getByRole('button', { name: 'Allow access' }).waitFor();
    for (const i of options.accounts) {
      const a = s.organization.accounts[i];
      await page.getByLabel(`${a.number} ${a.name}`).check();
    }
    if (options.mandate) await page.getByLabel('Allow final posting (mandate)').check();
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.waitForURL(/\/callback\?/);
    return exchange(s, page.url(), verifier);
  }

  it('happy path by keyboard: sign in, choose accounts, Allow access → code → token; prepare 200 on chosen accounts, 422 on others', async () => {
    const s = await setup();
    const { verifier, challenge } = pkcePair();
    const response = await page.goto(authorizeUrl(s, challenge));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    await shot('01-sign-in');
    // keyboard only: the fields are reachable in order with Tab and the form submits with Enter
    await page.getByLabel('Email').focus();
    await page.keyboard.type(s.owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type(code(s));
    const consentPage = page.waitForResponse((r) => r.url().endsWith('/oauth/authorize/continue'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /asks for access/ }).waitFor();
    // CONTRACT §18: the sign-in's POST answered 303 to the next page
    expect(page.url()).toBe(`${base}/oauth/authorize/continue`);
    // CONTRACT §11: forms post to this origin, and the consent form's 303 may go to the app's origin only
    const csp = (await consentPage).headers()['content-security-policy'];
    expect(csp).toContain(`form-action 'self' ${new URL(callbackUri).origin};`);
    const boxes = page.getByRole('checkbox');
    expect(await boxes.count()).toBe(4); // three accounts and the mandate
    for (let i = 0; i < 4; i++) expect(await boxes.nth(i).isChecked()).toBe(false);
    expect(await page.getByLabel('Duration').inputValue()).toBe('90');
    await shot('02-consent');
    await page.getByLabel('1000 Konto 1').check();
    await page.getByLabel('1010 Konto 2').check();
    await page.getByLabel('Duration').selectOption('60');
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.waitForURL(/\/callback\?/);
    await shot('03-back-at-app');
    // Chromium followed the 303 under that form-action (a CSP violation would have stopped it here)
    const location = new URL(page.url());
    expect(location.searchParams.get('state')).toBe('b-state');
    // RFC 9207: the issuer (PUBLIC_ORIGIN) comes with the code
    expect([...location.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
    expect(location.searchParams.get('iss')).toBe('http://localhost:3000');
    const token = await exchange(s, page.url(), verifier);
    expect((await prepare(token.access_token, [s.organization.accounts[0].id, s.organization.accounts[1].id])).status).toBe(200);
    const other = await prepare(token.access_token, [s.organization.accounts[2].id]);
    expect([other.status, other.body.code]).toEqual([422, 'reference_not_allowed']);
  });

  it('Allow access with no account shows the form again with an error (422)', async () => {
    const s = await setup();
    await page.goto(authorizeUrl(s, pkcePair().challenge));
    await signIn(s);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/oauth/authorize/decision')),
      page.getByRole('button', { name: 'Allow access' }).click(),
    ]);
    expect(response.status()).toBe(422);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Choose at least one account');
    await shot('04-consent-no-account');
  });

  it('Deny returns access_denied to the app', async () => {
    const s = await setup();
    await page.goto(authorizeUrl(s, pkcePair().challenge));
    await signIn(s);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(/\/callback\?/);
    const location = new URL(page.url());
    expect([location.searchParams.get('error'), location.searchParams.get('state'), location.searchParams.get('code')]).toEqual([
      'access_denied',
      'b-state',
      null,
    ]);
  });

  it('the mandate checkbox gives final posting; without it POST /journal is 403 mandate_required', async () => {
    const s = await setup();
    const post = (token: string, key: string) =>
      app
        .partner()
        .post(`${PRODUCTION}/journal`)
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', key)
        .send(aJournal([s.organization.accounts[0].id]));
    const without = await consent(s, { accounts: [0] });
    expect((await post(without.access_token, 'b-1')).body.code).toBe('mandate_required');
    const withMandate = await consent(s, { accounts: [0], mandate: true });
    expect((await post(withMandate.access_token, 'b-2')).status).toBe(201);
  });

  it('a wrong password shows a generic failure; 5 failures lock the email (each a 303 back to the form: CONTRACT §21)', async () => {
    const s = await setup();
    await page.goto(authorizeUrl(s, pkcePair().challenge));
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().endsWith('/oauth/authorize/sign-in')) statuses.push(r.status());
    });
    for (let i = 0; i < 5; i++) {
      await signIn(s, `wrong password ${i}`);
      await page.getByRole('alert').waitFor();
      if (i === 0) await shot('05-sign-in-failed');
    }
    await signIn(s);
    await page.getByText('Too many failed sign-ins').waitFor();
    await shot('06-locked');
    expect(statuses).toEqual([303, 303, 303, 303, 303, 303]);
  });

  it('a form whose CSRF token was tampered with is refused (403) and nothing happens', async () => {
    const s = await setup();
    await page.goto(authorizeUrl(s, pkcePair().challenge));
    await page.locator('input[name=_csrf]').evaluate((el) => {
      (el as unknown as { value: string }).value = 'forged';
    });
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/sign-in')), signIn(s)]);
    expect(response.status()).toBe(403);
    await shot('07-csrf-refused');
    await expect(page.locator('body').textContent()).resolves.toContain('Nothing was changed');
  });

  it('a second consent supersedes the first grant: its token gets 403 grant_revoked', async () => {
    const s = await setup();
    const first = await consent(s, { accounts: [0] });
    const second = await consent(s, { accounts: [1] });
    const old = await prepare(first.access_token, [s.organization.accounts[0].id]);
    expect([old.status, old.body.code]).toEqual([403, 'grant_revoked']);
    expect((await prepare(second.access_token, [s.organization.accounts[1].id])).status).toBe(200);
  });

  it('an owner of two organizations picks one from the Organization select', async () => {
    const s = await setup();
    const other = await aProductionOrganization(app, { accounts: 1, name: 'Smørrebrød & Co ApS' });
    await consolePost(app, `/organizations/${other.id}/owners`, { email: s.owner.email });
    await page.goto(authorizeUrl(s, pkcePair().challenge));
    await signIn(s);
    await page.getByLabel('Organization').waitFor();
    await shot('08-organization');
    await page.getByLabel('Organization').selectOption({ label: 'Smørrebrød & Co ApS' });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Smørrebrød & Co ApS').first().waitFor();
    await expect(page.getByRole('checkbox').count()).resolves.toBe(2);
  });

  it('Connected apps: signed in by the consent, see the grant, Revoke → its token gets 403 grant_revoked', async () => {
    const s = await setup();
    const token = await consent(s, { accounts: [1] });
    // CONTRACT §21 "one sign-in": still signed in after the consent
    await page.goto(`${base}/account/connections`);
    await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
    await expect(page.getByText('1010 Konto 2').count()).resolves.toBe(1);
    await shot('09-connections');
    await page.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No app has access').waitFor();
    await shot('10-connections-after-revoke');
    const after = await prepare(token.access_token, [s.organization.accounts[1].id]);
    expect([after.status, after.body.code]).toEqual([403, 'grant_revoked']);
  });

  it('an unregistered redirect URI is a 400 page, and the browser stays on it', async () => {
    const s = await setup();
    const url = authorizeUrl(s, pkcePair().challenge).replace(encodeURIComponent(callbackUri), encodeURIComponent(`${callbackUri}/evil`));
    const response = await page.goto(url);
    expect(response?.status()).toBe(400);
    expect(page.url().startsWith(`${base}/oauth/authorize`)).toBe(true);
    await shot('11-bad-redirect-uri');
  });
});

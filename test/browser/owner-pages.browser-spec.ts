import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { type AxeFinding, checkAtTwoWidths, launchChromium } from '../support/browser';
import { aConsentSetup, anApprovedPublisher, type ConsentSetup, exchangeCode, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { aJournal, PRODUCTION } from '../support/fixtures';
import { aProductionOrganization, consolePost, ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/** The accessible names of each language (CONTRACT §11's `en` names; §18's Danish catalogue). */
const NAMES = {
  da: {
    locale: 'da-DK',
    email: 'E-mail',
    password: 'Adgangskode',
    code: 'Kode fra godkendelsesapp',
    signIn: 'Log ind',
    allow: 'Tillad',
    deny: 'Afvis',
    mandate: 'Tillad endelig bogføring (fuldmagt)',
    duration: 'Varighed',
    revoke: /^Tilbagekald/,
    confirm: 'Bekræft',
    cancel: 'Annuller',
    connections: 'Tilknyttede apps',
    endDate: 'til 18. februar 2027',
    revoked: 'er tilbagekaldt',
    organization: 'Virksomhed',
    continue: 'Fortsæt',
    signOut: 'Log ud',
    amount: '7.000,00 kr.',
    locked: 'For mange mislykkede login',
  },
  en: {
    locale: 'en-GB',
    email: 'Email',
    password: 'Password',
    code: 'Authenticator code',
    signIn: 'Sign in',
    allow: 'Allow access',
    deny: 'Deny',
    mandate: 'Allow final posting (mandate)',
    duration: 'Duration',
    revoke: /^Revoke/,
    confirm: 'Confirm',
    cancel: 'Cancel',
    connections: 'Connected apps',
    endDate: 'until 18 February 2027',
    revoked: 'was revoked',
    organization: 'Organization',
    continue: 'Continue',
    signOut: 'Sign out',
    amount: 'DKK 7,000.00',
    locked: 'Too many failed sign-ins',
  },
} as const;

/**
 * CONTRACT §18 in a real browser (Debian's Chromium through playwright-core), in both languages:
 * Enter on a checkbox never grants, the language choice order, who is asking and the end date, Revoke
 * asks first, and axe-core finds nothing serious or critical on any owner page at 1280 and 390 px.
 */
describe('owner pages in Danish and English, in control (CONTRACT §18)', () => {
  let app: TestApp;
  let browser: Browser;
  let callback: Server;
  let callbackUri: string;
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  let context: BrowserContext;
  let page: Page;
  const findings: AxeFinding[] = [];

  beforeAll(async () => {
    callback = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>App</title><h1>Back at the app</h1></html>');
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
  afterEach(() => context?.close());

  async function open(locale: string): Promise<void> {
    context = await browser.newContext({ locale });
    page = await context.newPage();
  }

  async function setup(): Promise<ConsentSetup> {
    const s = await aConsentSetup(app, { accounts: 3, redirectUris: [callbackUri] });
    await anApprovedPublisher(app, s.app.id, {
      name: 'Bogføring A/S',
      website: 'https://bogforing.example',
      privacyPolicy: 'https://bogforing.example/privatliv',
    });
    return s;
  }

  function authorizeUrl(s: ConsentSetup, extra: Record<string, string> = {}): string {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: s.client.client_id,
      redirect_uri: callbackUri,
      scope: 'journal:prepare journal:post products:create operations:read',
      state: 'b-state',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return `${base}/oauth/authorize?${q}`;
  }

  async function signIn(s: ConsentSetup, n: (typeof NAMES)['da' | 'en'], password = PASSWORD) {
    clock.advance(30_000);
    await page.getByLabel(n.email).fill(s.owner.email);
    await page.getByLabel(n.password).fill(password);
    await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
    await page.getByRole('button', { name: n.signIn }).click();
  }

  const grants = async (s: ConsentSetup) =>
    Number((await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1`, [s.organization.id]))[0].n);

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    it(`${lang}: Enter on a ticked checkbox does not grant; the form names who is asking and the end date; axe on every page`, async () => {
      await open(n.locale);
      const s = await setup();
      const bad = await page.goto(`${base}/oauth/authorize?client_id=nope`);
      expect(bad?.status()).toBe(400);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-01-bad-request`)));
      await page.goto(authorizeUrl(s));
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-02-sign-in`)));
      await signIn(s, n, 'wrong password 1');
      await page.getByRole('alert').waitFor();
      findings.push(...(await checkAtTwoWidths(page, `${lang}-03-sign-in-failed`)));
      await signIn(s, n);
      await page.getByRole('button', { name: n.allow }).waitFor();
      const body = (await page.locator('main').textContent()) as string;
      for (const shown of [
        'Partner API',
        'Bogføringsappen',
        'Bogføring A/S',
        'https://bogforing.example',
        'https://bogforing.example/privatliv',
        new URL(callbackUri).host,
        s.owner.email,
        'Bager Hansen ApS',
        n.endDate,
      ]) {
        expect(body).toContain(shown);
      }
      expect(body).not.toMatch(/journal:|products:create|operations:read/);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-04-consent`)));
      // keyboard: tick the first account with Space, then press Enter on it, and on the mandate box
      const first = page.getByLabel(`${s.organization.accounts[0].number} ${s.organization.accounts[0].name}`);
      await first.focus();
      await page.keyboard.press('Space');
      expect(await first.isChecked()).toBe(true);
      // Enter on the ticked checkbox and on the mandate box: the form comes back (422), nothing granted (Enter on a select submits nothing)
      for (const target of [first, page.getByLabel(n.mandate)]) {
        await target.focus();
        const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/authorize/decision')), page.keyboard.press('Enter')]);
        expect(answer.status()).toBe(422);
        await page.getByRole('alert').waitFor();
        expect(page.url().startsWith(callbackUri)).toBe(false);
        expect(await first.isChecked()).toBe(true);
      }
      expect(await grants(s)).toBe(0);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(lang === 'da' ? 'Der er ikke givet adgang' : 'Nothing has been granted');
      findings.push(...(await checkAtTwoWidths(page, `${lang}-04b-consent-after-enter`)));
      // only the grant button grants
      await page.getByRole('button', { name: n.allow }).click();
      await page.waitForURL(/\/callback\?/);
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
      expect(await grants(s)).toBe(1);
    });

    it(`${lang}: Connected apps shows the grant in detail; Revoke asks first (Cancel keeps it, Confirm revokes); axe on every page`, async () => {
      await open(n.locale);
      const s = await setup();
      const { verifier, challenge } = pkcePair();
      await page.goto(authorizeUrl(s, { code_challenge: challenge }));
      await signIn(s, n);
      const chosen = [s.organization.accounts[0], s.organization.accounts[1]];
      for (const a of chosen) await page.getByLabel(`${a.number} ${a.name}`).check();
      await page.getByLabel(n.mandate).check();
      await page.getByRole('button', { name: n.allow }).click();
      await page.waitForURL(/\/callback\?/);
      const grantRow = await app.apps.dataSource.query(`SELECT id FROM grants WHERE organization_id = $1`, [s.organization.id]);
      expect(grantRow).toHaveLength(1);
      // the app posts an entry with an attachment: the Activity table and its download on the page (and under axe)
      const token = await exchangeCode(app, s, new URL(page.url()).searchParams.get('code') as string, verifier, callbackUri);
      expect(token.status).toBe(200);
      const bearer = `Bearer ${token.body.access_token}`;
      const posted = await app
        .partner()
        .post(`${PRODUCTION}/journal`)
        .set('Authorization', bearer)
        .set('Idempotency-Key', `b-${lang}`)
        .send({
          ...aJournal(
            chosen.map((a) => a.id),
            { amount: 700000 },
          ),
          description: 'Husleje november',
        });
      expect(posted.status).toBe(201);
      const attached = await app
        .partner()
        .post(`${PRODUCTION}/journal/entries/${posted.body.id}/attachments`)
        .set('Authorization', bearer)
        .set('Idempotency-Key', `a-${lang}`)
        .set('Content-Type', 'application/pdf')
        .set('Content-Disposition', 'attachment; filename="faktura-1042.pdf"')
        .send(Buffer.from('%PDF-1.4\n%%EOF\n'));
      expect(attached.status).toBe(201);
      // CONTRACT §21 "one sign-in": still signed in after the consent
      await page.goto(`${base}/account/connections`);
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      await expect(page.locator('main').textContent()).resolves.toContain(n.amount);
      await page.getByRole('link', { name: 'faktura-1042.pdf' }).waitFor();
      findings.push(...(await checkAtTwoWidths(page, `${lang}-05-connections`)));
      await page.getByRole('button', { name: n.revoke }).click();
      await page.getByRole('button', { name: n.confirm }).waitFor();
      findings.push(...(await checkAtTwoWidths(page, `${lang}-06-revoke-confirm`)));
      await page.getByRole('button', { name: n.cancel }).click();
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      expect(await grants(s)).toBe(1);
      const inForce = async () =>
        Number(
          (await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM grants WHERE organization_id = $1 AND revoked_at IS NULL`, [s.organization.id]))[0]
            .n,
        );
      expect(await inForce()).toBe(1);
      await page.getByRole('button', { name: n.revoke }).click();
      await page.getByRole('button', { name: n.confirm }).click();
      await page.getByRole('status').waitFor();
      expect(page.url()).toBe(`${base}/account/connections#status`);
      await expect(page.getByRole('status').textContent()).resolves.toContain(n.revoked);
      expect(await inForce()).toBe(0);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-07-connections-revoked`)));
      // a reload shows the page again without the status and posts nothing
      await page.reload();
      await expect(page.getByRole('status').count()).resolves.toBe(0);
    });
  }

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    it(`${lang}: the organization choice, Connected apps' sign-in and sign-out, and the lock message; axe on every page`, async () => {
      await open(n.locale);
      const s = await setup();
      const other = await aProductionOrganization(app, { accounts: 1, name: 'Smørrebrød & Co ApS' });
      await consolePost(app, `/organizations/${other.id}/owners`, { email: s.owner.email });
      await page.goto(authorizeUrl(s));
      await signIn(s, n);
      await page.getByLabel(n.organization).waitFor();
      findings.push(...(await checkAtTwoWidths(page, `${lang}-08-organization`)));
      await page.getByLabel(n.organization).selectOption({ label: 'Smørrebrød & Co ApS' });
      await page.getByRole('button', { name: n.continue }).click();
      await page.getByRole('button', { name: n.allow }).waitFor();
      // Connected apps: signed in by the consent (CONTRACT §21 "one sign-in"); Sign out leads to its own sign-in page
      await page.goto(`${base}/account/connections`);
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      await page.getByRole('button', { name: n.signOut }).click();
      await page.getByLabel(n.email).waitFor();
      expect(page.url()).toBe(`${base}/account/connections`);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-09-connections-sign-in`)));
      await signIn(s, n);
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      await page.getByRole('button', { name: n.signOut }).click();
      await page.getByLabel(n.email).waitFor();
      // five wrong passwords lock the email: the sixth answer leads back to the form (303, CONTRACT §21), which says so in the language
      for (let i = 0; i < 5; i++) await signIn(s, n, `wrong password ${i}`);
      const [locked] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/account/connections/sign-in')), signIn(s, n)]);
      expect(locked.status()).toBe(303);
      await page.getByRole('alert').waitFor();
      await expect(page.locator('#form-error').textContent()).resolves.toContain(n.locked);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-10-locked`)));
    });
  }

  it('the language order: ui_locales over the cookie and Accept-Language; the switch sets the cookie; then Accept-Language', async () => {
    await open('da-DK');
    const s = await setup();
    await page.goto(authorizeUrl(s, { ui_locales: 'en' }));
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.getByRole('link', { name: 'Dansk' }).click();
    expect(await page.getAttribute('html', 'lang')).toBe('da');
    await page.getByLabel('E-mail').waitFor();
    // the switch kept the authorization request: sign-in works and the consent form follows
    await signIn(s, NAMES.da);
    await page.getByRole('button', { name: 'Tillad' }).waitFor();
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Allow access' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'lang')?.value).toBe('en');
    // the cookie outranks Accept-Language on a page without ui_locales
    await page.goto(`${base}/account/connections`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await context.clearCookies();
    await page.goto(`${base}/account/connections`);
    expect(await page.getAttribute('html', 'lang')).toBe('da');
  });

  it('axe-core: no serious or critical finding on any owner page at 1280 and 390 px in either language', () => {
    expect(findings.map((f) => `${f.page}@${f.width}: ${f.id} (${f.impact}) ${f.targets.join(', ')}`)).toEqual([]);
    // every page was checked, both widths, both languages
    expect(findings).toEqual([]);
  });
});

import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { type AxeFinding, checkAtTwoWidths, launchChromium } from '../support/browser';
import { ManualClock } from '../support/production-fixtures';
import { SmtpInbox, signupLinkIn } from '../support/smtp-inbox';
import { createTestApp, type TestApp } from '../support/test-app';

const DEV_PASSWORD = 'udvikler hest batteri 42';
const SLOW = 240_000;

/** The accessible names of each language: §15's English ones, and the Danish catalogue's. */
const NAMES = {
  en: {
    locale: 'en-GB',
    email: 'Email',
    password: 'Password',
    code: 'Authenticator code',
    createAccount: 'Create account',
    checkEmail: 'Check your email',
    confirmSignup: 'Confirm',
    yourApps: 'Your apps',
    newApp: 'New app',
    appName: 'App name',
    createApp: 'Create app',
    newToken: 'New sandbox token',
    newSecret: 'New client secret',
    redirectUris: 'Redirect URIs',
    saveRedirect: 'Save redirect URIs',
    url: 'URL',
    environment: 'Environment',
    addEndpoint: 'Add endpoint',
    delete: /^Delete/,
    submit: 'Submit for review',
    publisherName: 'Publisher name',
    website: 'Website',
    privacy: 'Privacy policy',
    savePublisher: 'Save publisher',
    confirm: 'Confirm',
    cancel: 'Cancel',
    signIn: 'Sign in',
    signOut: 'Sign out',
  },
  da: {
    locale: 'da-DK',
    email: 'E-mail',
    password: 'Adgangskode',
    code: 'Kode fra godkendelsesapp',
    createAccount: 'Opret konto',
    checkEmail: 'Tjek din e-mail',
    confirmSignup: 'Bekræft',
    yourApps: 'Dine apps',
    newApp: 'Ny app',
    appName: 'Appens navn',
    createApp: 'Opret app',
    newToken: 'Nyt sandkassetoken',
    newSecret: 'Ny klienthemmelighed',
    redirectUris: 'Redirect-URI’er',
    saveRedirect: 'Gem redirect-URI’er',
    url: 'URL',
    environment: 'Miljø',
    addEndpoint: 'Tilføj modtager',
    delete: /^Slet/,
    submit: 'Indsend til godkendelse',
    publisherName: 'Udgiverens navn',
    website: 'Websted',
    privacy: 'Privatlivspolitik',
    savePublisher: 'Gem udgiver',
    confirm: 'Bekræft',
    cancel: 'Annuller',
    signIn: 'Log ind',
    signOut: 'Log ud',
  },
} as const;

/**
 * CONTRACT §15 and §18 in a real browser, in both languages: every developer-console POST answers 303
 * and a reload after it creates nothing, each destructive action asks first (Confirm/Cancel), and
 * axe-core finds nothing serious or critical on any page at 1280 and 390 px.
 */
describe('developer console in Danish and English (CONTRACT §15, §18)', () => {
  let app: TestApp;
  let inbox: SmtpInbox;
  let browser: Browser;
  let base: string;
  const clock = new ManualClock(Date.now());
  let context: BrowserContext;
  let page: Page;
  const findings: AxeFinding[] = [];
  const posts: Array<{ url: string; status: number }> = [];

  beforeAll(async () => {
    // sign-up proves the email first (issue 35): the link comes from a real SMTP server on 127.0.0.1
    inbox = await new SmtpInbox().start();
    app = await createTestApp({ smtpUrl: inbox.url }, { clock });
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await inbox?.stop();
  });
  afterEach(() => context?.close());

  const count = async (sql: string, params: unknown[]) => Number((await app.apps.dataSource.query(sql, params))[0].n);

  /** A reload of the page a POST's 303 led to: the browser asks nothing and sends a GET, so nothing is made twice. */
  async function reloadMakesNothing(what: () => Promise<number>): Promise<void> {
    const before = await what();
    const postsBefore = posts.length;
    const answer = await page.reload();
    expect(answer?.request().method()).toBe('GET');
    expect(posts.length).toBe(postsBefore);
    expect(await what()).toBe(before);
  }

  for (const lang of ['en', 'da'] as const) {
    const n = NAMES[lang];

    it(
      `${lang}: sign-up, app, token, secret, publisher, endpoint, delete, review — each POST 303, reloads make nothing, destructive ones ask first; axe on every page`,
      async () => {
        context = await browser.newContext({ locale: n.locale });
        page = await context.newPage();
        page.on('response', (r) => {
          if (r.request().method() === 'POST') posts.push({ url: r.url(), status: r.status() });
        });
        const email = `dev-${lang}-${Date.now()}@example.dk`;
        await page.goto(`${base}/developers/signup`);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-01-signup`)));
        await page.getByLabel(n.email).fill(email);
        await page.getByRole('button', { name: n.createAccount }).click();
        await page.getByRole('heading', { name: n.checkEmail }).waitFor();
        expect(page.url()).toBe(`${base}/developers/signup/sent`);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-01b-check-email`)));
        // the email's link sets the sign-up in this browser's session and leads (303) to the enrolment page
        const link = signupLinkIn(await inbox.nth(email)) as string;
        expect(link).not.toBeNull();
        await page.goto(`${base}${link}`);
        await page.getByLabel(n.code).waitFor();
        expect(page.url()).toBe(`${base}/developers/signup/confirm`);
        await reloadMakesNothing(() => count(`SELECT count(*)::int AS n FROM developers WHERE email = $1`, [email]));
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-02-enrol`)));
        const secret = ((await page.locator('#totp-secret').textContent()) as string).replace(/ /g, '');
        clock.advance(30_000);
        const code = totpCodeAt(secret, clock.nowMs());
        // CONTRACT §20: the password is chosen here, on the link's page
        await page.getByLabel(n.password).fill(DEV_PASSWORD);
        // pasted with a space in the middle: ignored
        await page.getByLabel(n.code).fill(`${code.slice(0, 3)} ${code.slice(3)}`);
        await page.getByRole('button', { name: n.confirmSignup }).click();
        await page.getByRole('heading', { name: n.yourApps }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-03-apps`)));

        await page.getByRole('button', { name: n.newApp }).click();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-04-new-app`)));
        await page.getByLabel(n.appName).fill(`Kassen ${lang}`);
        await page.getByRole('button', { name: n.createApp }).click();
        await page.waitForURL(/\/developers\/apps\/[0-9a-f-]{36}$/);
        const appId = new URL(page.url()).pathname.split('/').pop() as string;
        const apps = () => count(`SELECT count(*)::int AS n FROM developer_apps d JOIN developers v ON v.id = d.developer_id WHERE v.email = $1`, [email]);
        await reloadMakesNothing(apps);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-05-app`)));

        const generations = () =>
          count(`SELECT count(*)::int AS n FROM sandbox_generations g JOIN developer_apps d ON d.sandbox_project_id = g.project_id WHERE d.app_id = $1`, [
            appId,
          ]);
        // New sandbox token asks first; Cancel changes nothing
        const before = await generations();
        await page.getByRole('button', { name: n.newToken }).click();
        await page.getByRole('button', { name: n.confirm }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-06-confirm-token`)));
        await page.getByRole('button', { name: n.cancel }).click();
        await page.waitForURL(/#sandbox$/);
        expect(await generations()).toBe(before);
        await page.getByRole('button', { name: n.newToken }).click();
        await page.getByRole('button', { name: n.confirm }).click();
        await page.waitForURL(/#sandbox$/);
        expect(await page.locator('#sandbox #issued-value').textContent()).toMatch(/^hsk_/);
        expect(await generations()).toBe(before + 1);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-07-token-issued`)));
        await reloadMakesNothing(generations);
        expect(await page.locator('#issued-value').count()).toBe(0);

        // redirect URIs, then New client secret (asks first)
        await page.getByLabel(n.redirectUris).fill('ftp://nope.example/cb');
        const [refused] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/redirect-uris')),
          page.getByRole('button', { name: n.saveRedirect }).click(),
        ]);
        expect(refused.status()).toBe(422);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-08-redirect-error`)));
        await page.getByLabel(n.redirectUris).fill('https://app.example/callback');
        await page.getByRole('button', { name: n.saveRedirect }).click();
        await page.waitForURL(/#oauth$/);
        await page.locator('#oauth [role=status]').waitFor();
        await page.getByRole('button', { name: n.newSecret }).click();
        await page.getByRole('button', { name: n.confirm }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-08a-confirm-secret`)));
        await page.getByRole('button', { name: n.confirm }).click();
        await page.waitForURL(/#oauth$/);
        expect(await page.locator('#oauth #issued-value').textContent()).toMatch(/^hcs_/);
        const secretHash = async () =>
          (await app.apps.dataSource.query(`SELECT secret_hash FROM oauth_clients WHERE app_id = $1`, [appId]))[0].secret_hash as string;
        const hash = await secretHash();
        await page.reload();
        expect(await secretHash()).toBe(hash);

        // publisher: https only
        await page.getByLabel(n.publisherName).fill('Kassen ApS');
        await page.getByLabel(n.website).fill('http://kassen.example');
        const [bad] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/publisher')),
          page.getByRole('button', { name: n.savePublisher }).click(),
        ]);
        expect(bad.status()).toBe(422);
        await page.locator('#website-error').waitFor();
        await page.getByLabel(n.website).fill('https://kassen.example');
        await page.getByLabel(n.privacy).fill('https://kassen.example/privatliv');
        await page.getByRole('button', { name: n.savePublisher }).click();
        await page.waitForURL(/#publisher$/);
        expect((await app.apps.dataSource.query(`SELECT publisher_name, website_url, privacy_policy_url FROM apps WHERE id = $1`, [appId]))[0]).toEqual({
          publisher_name: 'Kassen ApS',
          website_url: 'https://kassen.example',
          privacy_policy_url: 'https://kassen.example/privatliv',
        });

        // Add endpoint (its secret once), a reload adds nothing; Delete asks first
        const endpoints = () =>
          count(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE active AND app_id IN (SELECT sandbox_app_id FROM developer_apps WHERE app_id = $1)`, [
            appId,
          ]);
        await page.getByLabel(n.url, { exact: true }).fill(`http://127.0.0.1:9/hooks-${lang}`);
        await page.locator('#environment').selectOption('sandbox');
        await page.getByRole('button', { name: n.addEndpoint }).click();
        await page.waitForURL(/#webhooks$/);
        expect(await page.locator('#webhooks #issued-value').textContent()).toMatch(/^whsec_/);
        await reloadMakesNothing(endpoints);
        expect(await endpoints()).toBe(1);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-08b-endpoint-tools`)));
        await page.getByRole('button', { name: n.delete }).first().click();
        await page.getByRole('button', { name: n.cancel }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-09-confirm-delete`)));
        await page.getByRole('button', { name: n.confirm }).click();
        await page.waitForURL(/#webhooks$/);
        expect(await endpoints()).toBe(0);
        await page.locator('#webhooks [role=status]').waitFor();

        const revisions = () => count(`SELECT count(*)::int AS n FROM app_revisions WHERE app_id = $1`, [appId]);
        // CONTRACT §21: Submit for review asks first
        await page.getByRole('button', { name: n.submit }).click();
        await page.getByRole('button', { name: n.cancel }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-09b-confirm-submit`)));
        await page.getByRole('button', { name: n.confirm }).click();
        await page.waitForURL(/#revisions$/);
        expect(await revisions()).toBe(1);
        await reloadMakesNothing(revisions);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-10-app-after`)));

        // Sign out, then the sign-in page and a refused sign-in (401), in the language
        await page.getByRole('button', { name: n.signOut }).click();
        await page.getByRole('button', { name: n.signIn }).waitFor();
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-11-sign-in`)));
        await page.getByLabel(n.email).fill(email);
        await page.getByLabel(n.password).fill(DEV_PASSWORD);
        await page.getByLabel(n.code).fill('000000');
        const [refusedSignIn] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST'),
          page.getByRole('button', { name: n.signIn }).click(),
        ]);
        // CONTRACT §21: 303 back to the form, whose message at its top takes focus
        expect(refusedSignIn.status()).toBe(303);
        await page.getByRole('alert').waitFor();
        await expect(page.locator('#form-error:focus').count()).resolves.toBe(1);
        findings.push(...(await checkAtTwoWidths(page, `dev-${lang}-12-sign-in-failed`)));

        // every POST that succeeded answered 303, and so did the refused sign-in (CONTRACT §21); the other refused ones 422
        expect(posts.filter((p) => p.status !== 303 && p.status !== 422)).toEqual([]);
      },
      SLOW,
    );
  }

  it('axe-core: no serious or critical finding on any developer page at 1280 and 390 px in either language', () => {
    expect(findings.map((f) => `${f.page}@${f.width}: ${f.id} (${f.impact}) ${f.targets.join(', ')}`)).toEqual([]);
  });
});

import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { signInKey } from '../../src/shared/web';
import { type AxeFinding, axeFindings, checkAtTwoWidths, launchChromium } from '../support/browser';
import { aConsentSetup, authorizeQuery, PASSWORD, pkcePair } from '../support/consent-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const NAMES = {
  da: {
    locale: 'da-DK',
    email: 'E-mail',
    password: 'Adgangskode',
    code: 'Kode fra godkendelsesapp',
    signIn: 'Log ind',
    failed: 'Du kunne ikke logges ind',
    connections: 'Tilknyttede apps',
    allow: 'Tillad',
    signOut: 'Log ud',
    replaced: 'En nyere anmodning har erstattet denne',
    continueNewer: 'Fortsæt med den nyere anmodning',
  },
  en: {
    locale: 'en-GB',
    email: 'Email',
    password: 'Password',
    code: 'Authenticator code',
    signIn: 'Sign in',
    failed: 'Sign-in failed',
    connections: 'Connected apps',
    allow: 'Allow access',
    signOut: 'Sign out',
    replaced: 'A newer request replaced this one',
    continueNewer: 'Continue with the newer request',
  },
} as const;

/**
 * CONTRACT §21 "A reload repeats nothing", in a real browser: a refused sign-in on Connected apps, then
 * five reloads of the page it answered with (page.reload(), as a person presses F5): no POST is sent
 * again, one failure is counted, the message stays at the top of the form in a focused alert, the email
 * typed is kept and the password and code are not; then the right password and code sign in. Both
 * languages; axe-core at 1280, 390 and 320 px.
 */
describe('a reload after a refused sign-in repeats nothing (CONTRACT §21)', () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 10));
  let context: BrowserContext;
  let page: Page;
  const findings: AxeFinding[] = [];

  beforeAll(async () => {
    app = await createTestApp({}, { clock });
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => context?.close());

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    it(`${lang}: five reloads after a refused sign-in post nothing and count nothing; the right password and code then sign in`, async () => {
      const s = await aConsentSetup(app);
      context = await browser.newContext({ locale: n.locale });
      page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST') posts.push(r.url());
      });
      const failures = async () =>
        Number(
          (await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM sign_in_failures WHERE email_key = $1`, [signInKey('owner', s.owner.email)]))[0].n,
        );

      await page.goto(`${base}/account/connections`);
      await page.getByLabel(n.email).fill(s.owner.email);
      await page.getByLabel(n.password).fill('not the password at all');
      await page.getByLabel(n.code).fill('123456');
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('alert').waitFor();
      expect(posts).toHaveLength(1);
      expect(await failures()).toBe(1);

      for (let i = 0; i < 5; i++) {
        await page.reload();
        await page.getByLabel(n.email).waitFor();
      }
      expect(posts).toHaveLength(1);
      expect(await failures()).toBe(1);

      // what the refused form shows, seen once more by posting it again (the reloads showed the form without it)
      await page.getByLabel(n.email).fill(s.owner.email);
      await page.getByLabel(n.password).fill('still not the password');
      await page.getByLabel(n.code).fill('654321');
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('alert').waitFor();
      expect(await failures()).toBe(2);
      await expect(page.locator('#form-error').textContent()).resolves.toContain(n.failed);
      await expect(page.locator('#form-error:focus').count()).resolves.toBe(1);
      await expect(page.getByLabel(n.email).inputValue()).resolves.toBe(s.owner.email);
      await expect(page.getByLabel(n.password).inputValue()).resolves.toBe('');
      await expect(page.getByLabel(n.code).inputValue()).resolves.toBe('');
      findings.push(...(await checkAtTwoWidths(page, `${lang}-form-reload-refused`)));
      await page.setViewportSize({ width: 320, height: 800 });
      findings.push(...(await axeFindings(page, `${lang}-form-reload-refused`)));
      await page.setViewportSize({ width: 1280, height: 900 });

      clock.advance(30_000);
      await page.getByLabel(n.password).fill(PASSWORD);
      await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
    });
  }

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    it(`${lang}: one sign-in — Connected apps, then the consent form without signing in again, through its Connected apps link, Back and a second tab; Sign out keeps the request`, async () => {
      const s = await aConsentSetup(app);
      context = await browser.newContext({ locale: n.locale });
      page = await context.newPage();
      await page.goto(`${base}/account/connections`);
      clock.advance(30_000);
      await page.getByLabel(n.email).fill(s.owner.email);
      await page.getByLabel(n.password).fill(PASSWORD);
      await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      const request = `${base}/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: `one-${lang}` })}`;
      await page.goto(request);
      await page.getByRole('button', { name: n.allow }).waitFor();
      expect(await page.getByLabel(n.password).count()).toBe(0);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-one-sign-in-consent`)));
      await page.setViewportSize({ width: 320, height: 800 });
      findings.push(...(await axeFindings(page, `${lang}-one-sign-in-consent`)));
      await page.setViewportSize({ width: 1280, height: 900 });
      // the link to Connected apps, and Back to the same request
      await page.getByRole('main').getByRole('link', { name: n.connections }).click();
      await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
      await page.goBack();
      await page.getByRole('button', { name: n.allow }).waitFor();
      // Sign out: the same request's sign-in page
      await page.getByRole('button', { name: n.signOut }).click();
      await page.getByLabel(n.password).waitFor();
      expect(page.url()).toContain(`state=one-${lang}`);
      clock.advance(30_000);
      await page.getByLabel(n.email).fill(s.owner.email);
      await page.getByLabel(n.password).fill(PASSWORD);
      await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('button', { name: n.allow }).waitFor();
      // a second tab: signed in there too
      const second = await context.newPage();
      await second.goto(`${base}/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: `two-${lang}` })}`);
      await second.getByRole('button', { name: n.allow }).waitFor();
      expect(await second.getByLabel(n.password).count()).toBe(0);
    });
  }

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    /**
     * Issue 45 leftover (CONTRACT §21 "One sign-in" through a second tab): the second tab's request replaces
     * the first. The first tab's Allow then decides nothing — not the second tab's request under the first
     * tab's choices, not a 403 "expired or not from this site" — but says a newer request replaced it and
     * leads to that one; the second tab's Allow gives its own app its code.
     */
    it(`${lang}: a second tab's consent request replaces the first: the first tab's Allow decides nothing and leads to the newer request, which then answers its own state`, async () => {
      const s = await aConsentSetup(app);
      context = await browser.newContext({ locale: n.locale });
      const callbacks: string[] = [];
      await context.route('http://127.0.0.1:8765/**', (route) => {
        callbacks.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><h1>Back at the app</h1>' });
      });
      page = await context.newPage();
      await page.goto(`${base}/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: `first-${lang}` })}`);
      clock.advance(30_000);
      await page.getByLabel(n.email).fill(s.owner.email);
      await page.getByLabel(n.password).fill(PASSWORD);
      await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
      await page.getByRole('button', { name: n.signIn }).click();
      await page.getByRole('button', { name: n.allow }).waitFor();

      const second = await context.newPage();
      await second.goto(`${base}/oauth/authorize?${authorizeQuery(s, pkcePair().challenge, { state: `second-${lang}` })}`);
      await second.getByRole('button', { name: n.allow }).waitFor();

      // the first tab, still showing the first request's form
      await page.getByRole('checkbox').first().check();
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/oauth/authorize/decision')),
        page.getByRole('button', { name: n.allow }).click(),
      ]);
      expect(answer.status()).toBe(409);
      await page.getByRole('heading', { name: n.replaced, level: 1 }).waitFor();
      expect(callbacks).toEqual([]);
      findings.push(...(await checkAtTwoWidths(page, `${lang}-consent-replaced`)));
      await page.setViewportSize({ width: 320, height: 800 });
      findings.push(...(await axeFindings(page, `${lang}-consent-replaced`)));
      await page.setViewportSize({ width: 1280, height: 900 });
      // its link: the newer request's form, still signed in
      await page.getByRole('link', { name: n.continueNewer }).click();
      await page.getByRole('button', { name: n.allow }).waitFor();
      expect(await page.getByLabel(n.password).count()).toBe(0);

      // the second tab answers its own request
      await second.getByRole('checkbox').first().check();
      await second.getByRole('button', { name: n.allow }).click();
      await second.getByRole('heading', { name: 'Back at the app' }).waitFor();
      expect(callbacks).toHaveLength(1);
      const back = new URL(callbacks[0]!);
      expect(back.searchParams.get('state')).toBe(`second-${lang}`);
      expect(back.searchParams.get('code')).toBeTruthy();
    });
  }

  it('axe-core: no serious or critical finding on the refused sign-in at 1280, 390 and 320 px in either language', () => {
    expect(findings.map((f) => `${f.page}@${f.width}: ${f.id} (${f.impact}) ${f.targets.join(', ')}`)).toEqual([]);
  });
});

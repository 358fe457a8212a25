/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { type AxeFinding, axeFindings, launchChromium, SCREENSHOTS, servedOn } from '../support/browser';
import { aConsentSetup, anApprovedPublisher, type ConsentSetup, consentOverHttp, PASSWORD, pkcePair, REDIRECT_URI } from '../support/consent-fixtures';
import { ManualClock } from '../support/production-fixtures';
import { createTestApp, TEST_CONSOLE_KEY, type TestApp } from '../support/test-app';

const SLOW = 240_000;
const DEV_PASSWORD = 'udvikler hest batteri 42';

const NAMES = {
  da: {
    locale: 'da-DK',
    skip: 'Gå til indhold',
    email: 'E-mail',
    password: 'Adgangskode',
    code: 'Kode fra godkendelsesapp',
    signIn: 'Log ind',
    allow: 'Tillad',
    connections: 'Tilknyttede apps',
    revoke: 'Tilbagekald',
    notVerified: 'Ikke verificeret af Regnskabsporten',
    savePublisher: 'Gem udgiver',
    publisherSaved: 'Udgiveren er gemt.',
    cvr: 'CVR-nummer',
    cvrRefused: 'CVR-nummer: indtast de 8 cifre',
  },
  en: {
    locale: 'en-GB',
    skip: 'Skip to content',
    email: 'Email',
    password: 'Password',
    code: 'Authenticator code',
    signIn: 'Sign in',
    allow: 'Allow access',
    connections: 'Connected apps',
    revoke: 'Revoke',
    notVerified: 'Not verified by Regnskabsporten',
    savePublisher: 'Save publisher',
    publisherSaved: 'Publisher saved.',
    cvr: 'CVR number',
    cvrRefused: 'CVR number: enter the 8 digits',
  },
} as const;
type Names = (typeof NAMES)['da' | 'en'];

/** WCAG's relative luminance and contrast ratio of two `rgb(…)`/`rgba(…)` colours as computed styles give them. */
function channels(css: string): [number, number, number, number] {
  const m = /rgba?\(([^)]+)\)/.exec(css);
  if (!m) throw new Error(`not an rgb colour: ${css}`);
  const [r, g, b, a = '1'] = m[1].split(/[\s,/]+/).filter(Boolean);
  return [Number(r), Number(g), Number(b), Number(a)];
}
function luminance([r, g, b]: [number, number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(channels(a)), luminance(channels(b))].sort((x, y) => y - x);
  return (la + 0.05) / (lb + 0.05);
}

/**
 * CONTRACT §21 "Pages for everyone" in Chromium, both languages, at 1280 and 320 CSS px, on the owner's
 * and the developer's pages: the skip link is the first focus stop and leads to the content; every
 * focus indicator met on the first stops has at least 3:1 contrast against the background around it
 * (computed from the styles Chromium computed); nothing scrolls sideways at 320 px; a status message is
 * in a live region; axe-core finds nothing serious or critical. Also "Who is asking, approved": the
 * consent page says the publisher is not verified, and a CVR number failing its check is refused on
 * the developer's form.
 */
describe('pages for everyone (CONTRACT §21)', () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 10));
  let context: BrowserContext;
  let page: Page;
  const findings: AxeFinding[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ serviceName: 'Regnskabsporten' }, { clock });
    base = await servedOn(app);
    browser = await launchChromium();
  }, SLOW);
  afterAll(() => Promise.all([browser?.close(), app?.close()]));
  afterEach(() => context?.close());

  /** Tab starts from the top of the page again, as on a page just loaded (an unfocusable marker before everything). */
  async function fromTheTop(): Promise<void> {
    await page.evaluate(() => {
      document.getElementById('tab-start')?.remove();
      const start = document.createElement('span');
      start.id = 'tab-start';
      start.tabIndex = -1;
      document.body.prepend(start);
      start.focus();
    });
  }

  /** The first `stops` focus stops by Tab: each one's focus outline against the first opaque background behind it. */
  async function focusStops(stops: number): Promise<Array<{ what: string; outline: string; width: number; background: string }>> {
    await fromTheTop();
    const out: Array<{ what: string; outline: string; width: number; background: string }> = [];
    for (let i = 0; i < stops; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        // the outline lies outside the element (outline-offset): its background is the parent's
        let bg = 'rgba(0, 0, 0, 0)';
        for (let p = el.parentElement; p; p = p.parentElement) {
          const c = getComputedStyle(p).backgroundColor;
          if (!/rgba\(.*, 0\)$/.test(c) && c !== 'transparent') {
            bg = c;
            break;
          }
        }
        if (bg === 'rgba(0, 0, 0, 0)') bg = 'rgb(255, 255, 255)';
        return {
          what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${(el.textContent ?? '').trim().slice(0, 30)}`,
          outline: style.outlineColor,
          width: parseFloat(style.outlineWidth) || 0,
          background: bg,
        };
      });
      if (stop) out.push(stop);
    }
    return out;
  }

  /** Every rule of §21's "Pages for everyone" on the page as it is, at 1280 and 320 px; a screenshot at each. */
  async function check(name: string, n: Names): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [1280, 320]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: join(SCREENSHOTS, `everyone-${name}-${width}.png`), fullPage: true });
      findings.push(...(await axeFindings(page, name)));
      // no horizontal scrolling (WCAG 1.4.10)
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      if (scroll > client) {
        const widest = await page.evaluate((limit) => {
          const out: string[] = [];
          for (const el of Array.from(document.querySelectorAll('main *'))) {
            const r = el.getBoundingClientRect();
            if (r.right > limit + 1 && out.length < 5)
              out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${(el as HTMLElement).className}:${Math.round(r.right)}`);
          }
          return out.join(', ');
        }, client);
        problems.push(`${name} @${width}: scrolls sideways (${scroll} > ${client}: ${widest})`);
      }
      // the skip link: the first focus stop, in the page's language, leading to the content
      const stops = await focusStops(6);
      if (!stops[0]?.what.startsWith(`a:${n.skip}`)) problems.push(`${name} @${width}: first focus stop is ${stops[0]?.what}`);
      for (const s of stops) {
        const ratio = s.width > 0 ? contrast(s.outline, s.background) : 0;
        if (ratio < 3) problems.push(`${name} @${width}: focus on ${s.what} has ${ratio.toFixed(2)}:1 (${s.outline} on ${s.background}, ${s.width}px)`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  async function followSkipLink(n: Names): Promise<void> {
    await fromTheTop();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.getByRole('link', { name: n.skip }).getAttribute('href')).toBe('#main');
  }

  async function ownerSignIn(s: ConsentSetup, n: Names): Promise<void> {
    clock.advance(30_000);
    await page.getByLabel(n.email).fill(s.owner.email);
    await page.getByLabel(n.password).fill(PASSWORD);
    await page.getByLabel(n.code).fill(totpCodeAt(s.owner.totp_secret, clock.nowMs()));
    await page.getByRole('button', { name: n.signIn }).click();
  }

  for (const lang of ['da', 'en'] as const) {
    const n = NAMES[lang];

    it(
      `${lang}: the owner's pages — sign-in, consent (publisher not verified), Connected apps`,
      async () => {
        context = await browser.newContext({ locale: n.locale });
        page = await context.newPage();
        const s = await aConsentSetup(app, { accounts: 3 });
        await anApprovedPublisher(app, s.app.id, { name: 'Bogføring A/S', website: 'https://bogforing.example', cvr: '10150817' });
        const q = new URLSearchParams({
          response_type: 'code',
          client_id: s.client.client_id,
          redirect_uri: REDIRECT_URI,
          scope: 'journal:prepare journal:post',
          state: 'x',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        });
        await page.goto(`${base}/oauth/authorize?${q}`);
        await check(`${lang}-owner-sign-in`, n);
        await followSkipLink(n);
        await ownerSignIn(s, n);
        await page.getByRole('button', { name: n.allow }).waitFor();
        const who = (await page.locator('#publisher').textContent()) as string;
        expect(who).toContain('Bogføring A/S');
        expect(who).toContain('10150817');
        expect(who).toContain(n.notVerified);
        await check(`${lang}-consent`, n);
        // a grant in force (made over HTTP), so Connected apps shows its card
        expect((await consentOverHttp(app, clock, s, { challenge: pkcePair().challenge, accountIds: [s.organization.accounts[0].id] })).location).toContain(
          'code=',
        );
        // Connected apps from a browser with no session asks to sign in (in the consent's browser the owner stays signed in: CONTRACT §21 one sign-in)
        await context.close();
        context = await browser.newContext({ locale: n.locale });
        page = await context.newPage();
        await page.goto(`${base}/account/connections`);
        await check(`${lang}-connections-sign-in`, n);
        await ownerSignIn(s, n);
        await page.getByRole('heading', { name: n.connections, level: 1 }).waitFor();
        await page.getByRole('button', { name: n.revoke }).waitFor();
        await check(`${lang}-connections`, n);
        expect(problems).toEqual([]);
        expect(findings).toEqual([]);
      },
      SLOW,
    );

    it(
      `${lang}: the developer's pages — sign-in, the app page (a refused CVR number, a status in a live region)`,
      async () => {
        context = await browser.newContext({ locale: n.locale });
        page = await context.newPage();
        const email = `dev-${lang}-${Date.now()}@example.dk`;
        const created = await app
          .console()
          .post('/console/v1/developers')
          .set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`)
          .send({ email, password: DEV_PASSWORD });
        expect(created.status).toBe(201);
        await page.goto(`${base}/developers/signin`);
        await check(`${lang}-developer-sign-in`, n);
        clock.advance(30_000);
        await page.getByLabel(n.email).fill(email);
        await page.getByLabel(n.password).fill(DEV_PASSWORD);
        await page.getByLabel(n.code).fill(totpCodeAt(created.body.totp_secret as string, clock.nowMs()));
        await page.getByRole('button', { name: n.signIn }).click();
        await page.waitForURL(`${base}/developers/apps`);
        await page.goto(`${base}/developers/apps/new`);
        await page.locator('input[name=name]').fill('Bogføringsappen med et meget langt navn uden mellemrum_abcdefghijklmnopqrstuvwxyz');
        await page.locator('form[action="/developers/apps"] button[type=submit]').click();
        await page.waitForURL(/\/developers\/apps\/[0-9a-f-]{36}/);
        const appUrl = page.url().split('#')[0];
        await page.locator('#redirect_uris').fill('http://127.0.0.1:8765/callback/with/a/rather/long/path/that/goes/on/and/on');
        await page.locator('form[action$="/redirect-uris"] button[type=submit]').click();
        await page.waitForURL(/#oauth$/);
        await page.goto(appUrl);
        await check(`${lang}-developer-app`, n);
        // a CVR number failing its check is refused beside the field
        await page.getByLabel(n.cvr, { exact: true }).fill('10150818');
        await page.getByRole('button', { name: n.savePublisher }).click();
        await page.locator('#cvr-error').waitFor();
        expect(await page.locator('#cvr-error').textContent()).toContain(n.cvrRefused);
        // a status message is announced: it sits in a live region
        await page.getByLabel(n.cvr, { exact: true }).fill('10150817');
        await page.getByRole('button', { name: n.savePublisher }).click();
        await page.getByRole('status').filter({ hasText: n.publisherSaved }).waitFor();
        await check(`${lang}-developer-app-saved`, n);
        expect(problems).toEqual([]);
        expect(findings).toEqual([]);
      },
      SLOW,
    );
  }
});

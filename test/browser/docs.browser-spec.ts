import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * CONTRACT §3 / issue 14 finding 9: /docs is served with a Content-Security-Policy, and the Swagger UI
 * page still works under it in a real browser (no script or style refused by the policy).
 */
describe('the docs page under its Content-Security-Policy, in a real browser', () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp();
    await app.apps.partner.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the operations of the partner API with no CSP violation', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const res = await page.goto(`${base}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Partner API');
    await page.waitForSelector('.opblock', { timeout: 15_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(0);
    expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
    await page.close();
  });
});

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Where the browser suites leave their screenshots, for a person to look at: `SCREENSHOT_DIR` (CI sets a
 * temporary folder, so its run leaves nothing in the tree), else test-output/screenshots (git-ignored).
 */
export const SCREENSHOTS = process.env.SCREENSHOT_DIR || join(__dirname, '..', '..', 'test-output', 'screenshots');

/** A full-page screenshot of the page as it is at 1280 px and at 390 px: `<name>-1280.png`, `<name>-390.png`. */
export async function screenshotsAtTwoWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Debian's Chromium, headless, without the network calls and sandbox a test machine does not want. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/** A log stream for createTestApp that keeps every line in `lines`. */
export function captureLog(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core finding of impact serious or critical: the rule and where. */
export interface AxeFinding {
  page: string;
  width: number;
  id: string;
  impact: string;
  targets: string[];
}

/**
 * CONTRACT §18 "Accessible": axe-core's WCAG 2.1 A/AA rules inside the page as it is, findings of
 * impact serious or critical only. axe is evaluated through the DevTools protocol (the pages' CSP
 * allows no script, and stays as it is).
 */
export async function axeFindings(page: Page, name: string): Promise<AxeFinding[]> {
  const width = page.viewportSize()?.width ?? 0;
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ page: name, width, ...v }));
}

/** Screenshots (`<name>-1280.png`, `<name>-390.png`) and axe-core at both widths; the findings of both. */
export async function checkAtTwoWidths(page: Page, name: string): Promise<AxeFinding[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const findings: AxeFinding[] = [];
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    findings.push(...(await axeFindings(page, name)));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return findings;
}

/** The partner listener on a free port of 127.0.0.1, for a browser; its base address. */
export async function servedOn(app: {
  apps: { partner: { listen: (port: number, host: string) => Promise<unknown>; getHttpServer: () => { address: () => unknown } } };
}): Promise<string> {
  await app.apps.partner.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.apps.partner.getHttpServer().address() as { port: number }).port}`;
}

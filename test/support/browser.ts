import { mkdirSync } from 'node:fs';
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
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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

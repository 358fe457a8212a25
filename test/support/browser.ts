import { Writable } from 'node:stream';
import { type Browser, chromium } from 'playwright-core';

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

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tryFromEnvFile, tryWithValues, writeSandboxEnv } from './first-start';

/**
 * Issue 34: the first start's "try" line must paste into bash as printed. Each variant runs in bash with
 * `curl` replaced by a function that prints the arguments it got, so the body the service would get is read
 * back and parsed as JSON (the end-to-end paste against a started service: test/e2e/readme.e2e-spec.ts).
 */
function argumentsOf(line: string): string[] {
  const stub = `curl() { "${process.execPath}" -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' -- "$@"; }`;
  const run = spawnSync('bash', ['--noprofile', '--norc', '-c', `${stub}\n${line}`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

const bodyOf = (args: string[]) => JSON.parse(args[args.indexOf('-d') + 1]) as { posting_date: string; lines: Array<Record<string, unknown>> };

describe("the first start's try line", () => {
  const rent = '6f1c2a9e-0d4b-4a51-9c3e-2b7d8f0a1e11';
  const bank = '0a2b4c6d-8e0f-4a1b-8c2d-3e4f5a6b7c8d';

  it('on a terminal: the token and ids written out, the body one JSON word', () => {
    const args = argumentsOf(tryWithValues('http://127.0.0.1:3000/api/partner/sandbox/v1', 'hsk_abc123', rent, bank, '2026-11-26'));
    expect(args.slice(0, 3)).toEqual(['-s', '-X', 'POST']);
    expect(args).toContain('http://127.0.0.1:3000/api/partner/sandbox/v1/journal/prepare');
    expect(args).toContain('Authorization: Bearer hsk_abc123');
    expect(bodyOf(args)).toEqual({
      posting_date: '2026-11-26',
      description: 'Husleje',
      lines: [
        { account_id: rent, debit_minor: 700000 },
        { account_id: bank, credit_minor: 700000 },
      ],
    });
  });

  it('in a log: sources sandbox.env (also from a folder with a space and a quote) and builds the same body', () => {
    const dir = mkdtempSync(join(tmpdir(), "first start's "));
    try {
      const envFile = writeSandboxEnv(dir, 'pglite:memory', {
        BASE: 'http://127.0.0.1:3000/api/partner/sandbox/v1',
        TOKEN: 'hsk_abc123',
        RENT_ACCOUNT: rent,
        BANK_ACCOUNT: bank,
      });
      const args = argumentsOf(tryFromEnvFile(envFile));
      expect(args).toContain('http://127.0.0.1:3000/api/partner/sandbox/v1/journal/prepare');
      expect(args).toContain('Authorization: Bearer hsk_abc123');
      const body = bodyOf(args);
      expect(body.posting_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(body.lines).toEqual([
        { account_id: rent, debit_minor: 700000 },
        { account_id: bank, credit_minor: 700000 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

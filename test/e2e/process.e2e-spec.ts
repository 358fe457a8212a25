import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port';
import { SKIPPED_ON_PGLITE, TEST_SECRETS_KEY } from '../support/test-app';
import { startService, stopService, waitForReady } from '../support/service-process';
import { eventually } from '../support/wait';

/**
 * The first-start experience of `npm start` on the embedded store (issue 2, CONTRACT §10): ready with
 * no database server, a sandbox token printed that works at once, graceful SIGTERM, and data kept across
 * a restart. Runs the built service (npm test builds it first).
 */
describe('the service process on the embedded store', () => {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const envFor = async (dataDir: string) => {
    const port = await freePort();
    return { env: { DATA_DIR: dataDir, PORT: String(port), CONSOLE_PORT: String(await freePort()), HOST: '127.0.0.1' }, origin: `http://127.0.0.1:${port}`, port };
  };

  it('starts, provisions a sandbox, stops on SIGTERM and keeps its data across a restart', async () => {
    expect(existsSync(join(__dirname, '..', '..', 'dist', 'src', 'main.js'))).toBe(true);
    const dataDir = tempDir('partner-api-process-');
    const { env, origin, port } = await envFor(dataDir);
    const first = startService(env);
    try {
      // a generous bound: on a loaded 2-core machine the first PGlite start (initdb + migrations) is slow
      await waitForReady(`${origin}/health/ready`, 90_000, first);
      await eventually(() => first.stdout().includes('sandbox.env'), 'the start banner', 60_000);
      const out = first.stdout();
      // stdout is a pipe here, not a terminal: the generated secrets are not printed, their files are named
      const envFile = join(dataDir, 'sandbox.env');
      expect(out).toContain(`Provisioned a sandbox project`);
      expect(out).toContain(`source ${envFile}`);
      expect(out).toContain(`console API key: generated into ${dataDir}/console-api-key`);
      expect(out).not.toMatch(/hsk_[0-9A-Za-z]{46}/);
      expect(out).not.toContain(readFileSync(join(dataDir, 'console-api-key'), 'utf8').trim());
      // the token and the ids as shell variables, the owner's alone
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
      const exported = readFileSync(envFile, 'utf8');
      const token = /TOKEN='(hsk_[0-9A-Za-z]{46})'/.exec(exported)?.[1];
      const accounts = [...exported.matchAll(/A[12]='([0-9a-f-]{36})'/g)].map((m) => m[1]);
      expect(token).toBeDefined();
      expect(accounts).toHaveLength(2);
      expect(exported).toContain(`export BASE='http://localhost:${port}/api/partner/sandbox/v1' TOKEN='${token}' A1='${accounts[0]}' A2='${accounts[1]}' APP_ID='`);

      const prepare = () =>
        fetch(`${origin}/api/partner/sandbox/v1/journal/prepare`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ posting_date: '2026-11-20', lines: [
            { account_id: accounts[0], debit_minor: 100 },
            { account_id: accounts[1], credit_minor: 100 },
          ] }),
        });
      const res = await prepare();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        valid: true, posted: false, checked: ['input', 'grant', 'references'],
        not_checked: ['commit_time_period_locks', 'accounting_transaction'],
      });

      expect(await stopService(first)).toBe(0);

      const second = startService(env);
      try {
        await waitForReady(`${origin}/health/ready`, 90_000, second);
        expect(second.stdout()).not.toContain('Provisioned a sandbox project');
        expect(second.stdout()).not.toContain(token!);
        expect(second.stdout()).not.toMatch(/console API key/);
        expect((await prepare()).status).toBe(200); // the project and its token survived the restart
      } finally {
        expect(await stopService(second)).toBe(0);
      }
    } finally {
      await stopService(first);
    }
  }, 240_000);

  it('refuses a bad configuration value with one line naming the variable', async () => {
    const { env } = await envFor(tempDir('partner-api-process-'));
    const proc = startService({ ...env, PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr().trim().split('\n')).toHaveLength(1);
    expect(proc.stderr()).toContain('PORT');
  });

  // DATABASE_URL makes the service use that server, not the embedded store.
  const url = process.env.TEST_DATABASE_URL;
  (url ? it : it.skip)(`uses PostgreSQL when DATABASE_URL is set${url ? '' : ` — ${SKIPPED_ON_PGLITE}`}`, async () => {
    const pgDataDir = tempDir('partner-api-pg-');
    const { env, origin } = await envFor(pgDataDir);
    // the suites' key: a generated one would not be the key this shared database's secrets have (CONTRACT §8)
    const proc = startService({ ...env, DATABASE_URL: url!, SECRETS_KEY: TEST_SECRETS_KEY });
    try {
      await waitForReady(`${origin}/health/ready`, 60_000, proc);
      expect(existsSync(join(pgDataDir, 'pglite'))).toBe(false);
      expect(proc.stdout()).not.toContain('Provisioned a sandbox project');
    } finally {
      expect(await stopService(proc)).toBe(0);
    }
  }, 90_000);
});

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, stopService, waitForReady } from '../support/service-process';

/**
 * The first-start experience of `npm start` on the embedded store (issue 2, CONTRACT §10): ready within
 * 30 s with no database server, a sandbox token printed that works at once, graceful SIGTERM, and data
 * kept across a restart. Runs the built service (npm test builds it first).
 */
describe('the service process on the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'partner-api-process-'));
  const env = { DATA_DIR: dataDir, PORT: '3871', CONSOLE_PORT: '3872', HOST: '127.0.0.1' };
  const origin = 'http://127.0.0.1:3871';

  it('starts, provisions a sandbox, stops on SIGTERM and keeps its data across a restart', async () => {
    expect(existsSync(join(__dirname, '..', '..', 'dist', 'src', 'main.js'))).toBe(true);
    const first = startService(env);
    try {
      const readyMs = await waitForReady(`${origin}/health/ready`, 30_000, first);
      expect(readyMs).toBeLessThan(30_000);
      const out = first.stdout();
      const token = /token:\s+(hsk_[0-9A-Za-z]{46})/.exec(out)?.[1];
      const accounts = [...out.matchAll(/= ([0-9a-f-]{36})/g)].map((m) => m[1]);
      expect(token).toBeDefined();
      expect(accounts).toHaveLength(2);
      expect(out).toContain("curl -s -X POST http://localhost:3871/api/partner/sandbox/v1/journal/prepare");
      expect(out).toMatch(/console API key \(generated/);

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
        await waitForReady(`${origin}/health/ready`, 30_000, second);
        expect(second.stdout()).not.toContain('Provisioned a sandbox project');
        expect(second.stdout()).not.toContain(token!);
        expect(second.stdout()).not.toMatch(/console API key \(generated/);
        expect((await prepare()).status).toBe(200); // the project and its token survived the restart
      } finally {
        expect(await stopService(second)).toBe(0);
      }
    } finally {
      await stopService(first);
    }
  }, 90_000);

  it('refuses a bad configuration value with one line naming the variable', async () => {
    const proc = startService({ ...env, PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr().trim().split('\n')).toHaveLength(1);
    expect(proc.stderr()).toContain('PORT');
  });

  // In the PostgreSQL pass of CI: DATABASE_URL makes the service use that server, not the embedded store.
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    it('uses PostgreSQL when DATABASE_URL is set', async () => {
      const pgDataDir = mkdtempSync(join(tmpdir(), 'partner-api-pg-'));
      const proc = startService({ ...env, DATA_DIR: pgDataDir, DATABASE_URL: url });
      try {
        await waitForReady(`${origin}/health/ready`, 30_000, proc);
        expect(existsSync(join(pgDataDir, 'pglite'))).toBe(false);
        expect(proc.stdout()).not.toContain('Provisioned a sandbox project');
      } finally {
        expect(await stopService(proc)).toBe(0);
      }
    }, 60_000);
  }
});

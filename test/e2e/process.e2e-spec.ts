import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withNewDatabase } from '../support/new-database';
import { eventually } from '../support/wait';
import { SKIPPED_ON_PGLITE, TEST_SECRETS_KEY } from '../support/test-app';
import { serviceEnv, startService, stopService, tempDirsOfSpec, waitForReady } from '../support/service-process';

/**
 * The first-start experience of `npm start` on the embedded store (issue 2, CONTRACT §10): ready with
 * no database server, a sandbox token printed that works at once, graceful SIGTERM, and data kept across
 * a restart. Runs the built service (npm test builds it first).
 */
describe('the service process on the embedded store', () => {
  const tempDir = tempDirsOfSpec();
  const envFor = serviceEnv;

  it('starts, provisions a sandbox, stops on SIGTERM and keeps its data across a restart', async () => {
    expect(existsSync(join(__dirname, '..', '..', 'dist', 'src', 'main.js'))).toBe(true);
    const dataDir = tempDir('partner-api-process-');
    const { env, origin, port } = await envFor(dataDir);
    const first = startService(env);
    try {
      // a generous bound: on a loaded 2-core machine the first PGlite start (initdb + migrations) is slow
      await waitForReady(`${origin}/health/ready`, 150_000, first);
      await eventually(() => first.stdout().includes('sandbox.env'), 'the start banner', 60_000);
      const out = first.stdout();
      // stdout is a pipe here, not a terminal: the generated secrets are not printed, their files are named
      const envFile = join(dataDir, 'sandbox.env');
      expect(out).toContain(`Provisioned a sandbox project`);
      expect(out).toContain(`source ${envFile}`);
      expect(out).toContain(`console API key: generated into ${dataDir}/console-api-key`);
      // issue 35: without SMTP_URL the start says what is off and where the sign-up links go
      expect(out).toContain('SMTP_URL is not set: developer sign-up sends no email');
      expect(out).not.toMatch(/hsk_[0-9A-Za-z]{46}/);
      expect(out).not.toContain(readFileSync(join(dataDir, 'console-api-key'), 'utf8').trim());
      // the token and the ids as shell variables, the owner's alone
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
      const exported = readFileSync(envFile, 'utf8');
      const token = /TOKEN='(hsk_[0-9A-Za-z]{46})'/.exec(exported)?.[1];
      // the sample chart's accounts by meaning (issue 26): rent (7000) and bank (12000) are the example's
      const byMeaning = (name: string) => new RegExp(` ${name}='([0-9a-f-]{36})'`).exec(exported)?.[1];
      const accounts = [byMeaning('RENT_ACCOUNT'), byMeaning('BANK_ACCOUNT')];
      expect(token).toBeDefined();
      expect(accounts.every((a) => a !== undefined)).toBe(true);
      expect(byMeaning('SALES_ACCOUNT')).toBeDefined();
      expect(exported).toContain(`export BASE='http://localhost:${port}/api/partner/sandbox/v1' TOKEN='${token}' APP_ID='`);
      expect(exported).toMatch(/ SALES_TAX_CODE='[0-9a-f-]{36}'/);
      // the store it belongs to
      expect(exported).toContain(`# store: pglite:${dataDir}`);
      expect(out).toContain('$RENT_ACCOUNT');

      const prepare = () =>
        fetch(`${origin}/api/partner/sandbox/v1/journal/prepare`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            posting_date: '2026-11-20',
            lines: [
              { account_id: accounts[0], debit_minor: 100 },
              { account_id: accounts[1], credit_minor: 100 },
            ],
          }),
        });
      const res = await prepare();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        valid: true,
        posted: false,
        checked: ['input', 'grant', 'references'],
        not_checked: ['commit_time_period_locks', 'accounting_transaction'],
      });

      expect(await stopService(first)).toBe(0);

      const second = startService(env);
      try {
        await waitForReady(`${origin}/health/ready`, 150_000, second);
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

  // WEBHOOK_ALLOWED_NETWORKS's refusals and warnings at start: local-webhooks.e2e-spec.ts

  // DATABASE_URL makes the service use that server, not the embedded store.
  const url = process.env.TEST_DATABASE_URL;
  (url ? it : it.skip)(
    `uses PostgreSQL when DATABASE_URL is set${url ? '' : ` — ${SKIPPED_ON_PGLITE}`}`,
    async () => {
      const pgDataDir = tempDir('partner-api-pg-');
      const { env, origin } = await envFor(pgDataDir);
      // a sandbox.env left by an earlier run on the embedded store: its token means nothing on this server
      writeFileSync(join(pgDataDir, 'sandbox.env'), `# store: pglite:${pgDataDir}\nexport TOKEN='hsk_stale'\n`, { mode: 0o600 });
      await withNewDatabase('partner_first_start', async (database) => {
        // the suites' key: a generated one would not be the key this shared database's secrets have (CONTRACT §8)
        const proc = startService({ ...env, DATABASE_URL: database, SECRETS_KEY: TEST_SECRETS_KEY });
        try {
          await waitForReady(`${origin}/health/ready`, 150_000, proc);
          await eventually(() => proc.stdout().includes('sandbox provision'), 'the start banner', 30_000);
          expect(existsSync(join(pgDataDir, 'pglite'))).toBe(false);
          expect(proc.stdout()).not.toContain('Provisioned a sandbox project');
          // issue 26: says how to get a sandbox here, and never leaves a stale sandbox.env to be sourced
          expect(proc.stdout()).toContain('No sandbox project on this database yet');
          expect(proc.stdout()).toContain("npm run -s console -- sandbox provision --name 'My integration'");
          expect(existsSync(join(pgDataDir, 'sandbox.env'))).toBe(false);
          expect(proc.stdout()).toContain('it was written for another store');
        } finally {
          expect(await stopService(proc)).toBe(0);
        }
      });
    },
    240_000,
  );
});

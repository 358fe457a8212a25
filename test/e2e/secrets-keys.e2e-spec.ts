import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApplications } from '../../src/bootstrap';
import { SecretBox } from '../../src/shared/crypto/secret-box';
import { SecretsKeyMismatchError } from '../../src/shared/crypto/secrets-key-check';
import { aProductionOrganization, anApprovedApp, anOwner, codeOf, consolePost } from '../support/production-fixtures';
import { createTestApp, TEST_SECRETS_KEY, testConfig, type TestApp } from '../support/test-app';

/** CONTRACT §8 "Keys across instances", in one process on either store (two processes: two-instances.e2e-spec.ts). */
describe('SECRETS_KEY and the secrets stored in the database (CONTRACT §8)', () => {
  it('a stored secret that no key of the instance opens is 503 service_unavailable with Retry-After, logged at error with its version', async () => {
    const lines: string[] = [];
    const logStream = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    const app: TestApp = await createTestApp({ logLevel: 'info' }, { logStream });
    try {
      const org = await aProductionOrganization(app, { accounts: 1 });
      const owner = await anOwner(app, org.id);
      const theApp = await anApprovedApp(app);
      // what an instance with another v1 key would have written
      const foreign = SecretBox.fromSpec(`v1:${Buffer.alloc(32, 0x33).toString('base64url')}`).seal(owner.totp_secret, 'users.totp_secret');
      await app.apps.dataSource.query(`UPDATE users SET totp_secret = $1 WHERE id = $2`, [foreign, owner.user_id]);
      for (let i = 0; i < 2; i++) {
        const res = await consolePost(app, `/organizations/${org.id}/grants`, {
          app_id: theApp.id,
          owner_user_id: owner.user_id,
          totp_code: codeOf(owner),
          account_ids: [org.accounts[0].id],
          scopes: ['journal:prepare'],
        });
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('service_unavailable');
        expect(res.headers['retry-after']).toBeDefined();
      }
      const errors = lines.filter((l) => l.includes('"level":50') && l.includes('SECRETS_KEY v1'));
      expect(errors).toHaveLength(1); // at most once a minute
      expect(errors[0]).not.toContain(owner.totp_secret);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with a key of a recorded version whose fingerprint differs, naming SECRETS_KEY and the version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-api-keys-'));
    // on PGlite a store of its own in DATA_DIR; on PostgreSQL the worker's database, whose v1 is the suites' key
    const database = testConfig().database.kind === 'pglite' ? { kind: 'pglite' as const, dataDir: join(dir, 'pglite') } : testConfig().database;
    try {
      const first = await createApplications(testConfig({ dataDir: dir, database, consolePort: 0, secretsKey: TEST_SECRETS_KEY }));
      await first.close();
      const other = `v1:${Buffer.alloc(32, 0x44).toString('base64url')}`;
      let error: unknown;
      try {
        const second = await createApplications(testConfig({ dataDir: dir, database, consolePort: 0, secretsKey: other }));
        await second.close();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(SecretsKeyMismatchError);
      const message = (error as Error).message;
      expect(message).toMatch(/^SECRETS_KEY.* v1 /);
      expect(message).not.toContain('\n');
      expect(message).not.toContain(other.slice(3));
      expect(message).not.toContain(TEST_SECRETS_KEY.slice(3));
      // the right key, also listed behind a new one, still starts
      const rotated = await createApplications(
        testConfig({
          dataDir: dir,
          database,
          consolePort: 0,
          secretsKey: database.kind === 'pglite' ? `v2:${Buffer.alloc(32, 0x45).toString('base64url')},${TEST_SECRETS_KEY}` : TEST_SECRETS_KEY,
        }),
      );
      await rotated.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // three starts of a store on disk (PGlite: initdb and migrations in DATA_DIR): over 180 s at load 23
  }, 360_000);
});

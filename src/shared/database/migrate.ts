import { loadConfig } from '../config/app-config';
import { secretsKeySpec, secureDataDir } from '../config/data-dir';
import { SecretBox } from '../crypto/secret-box';
import { lockDataDir } from '../runtime/data-dir-lock';
import { sealStoredSecrets } from '../crypto/seal-stored-secrets';
import { checkSecretsKeys } from '../crypto/secrets-key-check';
import { createDataSource, destroyDataSource } from './data-source';
import { PgPool } from './pg-pool';
import { runMigrations } from './run-migrations';

/**
 * `npm run migrate`: applies pending migrations to the configured store, seals stored secrets under
 * SECRETS_KEY (the data step that needs the key, see seal-stored-secrets.ts) and exits.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  secureDataDir(config.dataDir);
  // not beside a running service on the same store (CONTRACT §2)
  const unlock = await lockDataDir(config.dataDir);
  const box = SecretBox.fromSpec(secretsKeySpec(config.secretsKey, config.dataDir));
  const pool = PgPool.open(config.database);
  try {
    const dataSource = await createDataSource(pool);
    try {
      const applied = await runMigrations(dataSource, config.database);
      process.stdout.write(`${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
      await checkSecretsKeys(dataSource, box); // CONTRACT §8: the wrong key stops here (exit 1)
      const { sealed, unreadable, unreadableVersions } = await sealStoredSecrets(dataSource, box);
      process.stdout.write(
        `${sealed} stored secret(s) sealed under SECRETS_KEY v${box.current.version}${unreadable ? `; ${unreadable} sealed under ${unreadableVersions.join(', ')} open with no listed key` : ''}\n`,
      );
    } finally {
      await destroyDataSource(dataSource);
    }
  } finally {
    await pool.end();
    await unlock();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`migrate failed: ${err.message.split('\n')[0]}\n`);
  process.exit(1);
});

import { loadConfig } from '../config/app-config';
import { secretsKeySpec, secureDataDir } from '../config/data-dir';
import { SecretBox } from '../crypto/secret-box';
import { lockDataDir } from '../runtime/data-dir-lock';
import { sealStoredSecrets } from '../crypto/seal-stored-secrets';
import { createDataSource, destroyDataSource } from './data-source';
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
  const dataSource = await createDataSource(config.database);
  try {
    const applied = await runMigrations(dataSource, config.database);
    process.stdout.write(`${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
    const { sealed, unreadable } = await sealStoredSecrets(dataSource, box);
    process.stdout.write(`${sealed} stored secret(s) sealed under SECRETS_KEY v${box.current.version}${unreadable ? `; ${unreadable} open with no listed key` : ''}\n`);
  } finally {
    await destroyDataSource(dataSource, config.database);
    await unlock();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`migrate failed: ${err.message}\n`);
  process.exit(1);
});

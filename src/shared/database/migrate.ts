import { loadConfig } from '../config/app-config';
import { createDataSource, destroyDataSource } from './data-source';
import { runMigrations } from './run-migrations';

/** `npm run migrate`: applies pending migrations to the configured store and exits. */
async function main(): Promise<void> {
  const config = loadConfig();
  const dataSource = await createDataSource(config.database);
  try {
    const applied = await runMigrations(dataSource, config.database);
    process.stdout.write(`${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
  } finally {
    await destroyDataSource(dataSource, config.database);
  }
}

main().catch((err: Error) => {
  process.stderr.write(`migrate failed: ${err.message}\n`);
  process.exit(1);
});

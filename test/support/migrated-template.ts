import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import type { DatabaseConfig } from '../../src/shared/config/app-config';
import { createDataSource, destroyDataSource } from '../../src/shared/database/data-source';
import { PgPool, type PoolDriver } from '../../src/shared/database/pg-pool';
import { runMigrations } from '../../src/shared/database/run-migrations';
import { SerializedPGlitePool } from '../../src/shared/database/serialized-pglite-pool';

/**
 * The e2e run's migrated templates, made once by database-setup.js (jest globalSetup) instead of once per
 * test file or worker: every in-memory PGlite of a test app starts from the dumped data directory, every
 * worker's PostgreSQL database is a copy (CREATE DATABASE … TEMPLATE) of one migrated database.
 */
async function migrate(database: DatabaseConfig): Promise<void> {
  const pool = PgPool.open(database);
  try {
    const dataSource = await createDataSource(pool);
    try {
      await runMigrations(dataSource, database);
    } finally {
      await destroyDataSource(dataSource);
    }
  } finally {
    await pool.end();
  }
}

/**
 * Migrates a new in-memory PGlite (the service's own data source options, over an instance this function
 * holds) and writes its data directory (PGlite's dumpDataDir, an uncompressed tar) to `file`.
 */
export async function dumpMigratedPGlite(file: string): Promise<void> {
  const database: DatabaseConfig = { kind: 'pglite', dataDir: null };
  const pglite = await PGlite.create();
  try {
    // the pool over this instance, which this function closes itself (the pool's end would close the process's own)
    const pool = new PgPool('pglite', new SerializedPGlitePool(async () => pglite) as unknown as PoolDriver, async () => undefined);
    const dataSource = await createDataSource(pool);
    try {
      await runMigrations(dataSource, database);
    } finally {
      await destroyDataSource(dataSource);
    }
    // the two template databases are 15 of the dump's 40 MB and no test app uses them: every test app's
    // PGlite starts ~0.25 s of CPU sooner without them (361 against 641 ms for a start and one insert)
    for (const name of ['template0', 'template1']) {
      await pglite.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await pglite.exec(`DROP DATABASE ${name}`);
    }
    await pglite.exec('CHECKPOINT');
    const dump = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

/**
 * Migrates the (existing, empty) database at `url`, then waits until none of its sessions is left:
 * CREATE DATABASE … TEMPLATE refuses a template somebody is connected to.
 */
export async function migratePostgresTemplate(url: string, admin: Client): Promise<void> {
  await migrate({ kind: 'postgres', url });
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const end = Date.now() + 30_000;
  for (;;) {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].n === 0 || Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

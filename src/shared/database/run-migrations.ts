import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';

const MIGRATION_LOCK = 7_340_181_002; // arbitrary, constant advisory-lock key of this service

/**
 * Applies pending migrations. On PostgreSQL, several instances may start at once: a session advisory
 * lock lets one migrate while the others wait. (PGlite is owned by one process and has one session,
 * where the lock would wait for itself, so it is skipped there.)
 */
export async function runMigrations(dataSource: DataSource, database: DatabaseConfig): Promise<string[]> {
  if (database.kind !== 'postgres') {
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SET lock_timeout = 0'); // wait as long as another instance migrates
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.query('RESET lock_timeout').catch(() => undefined);
    await lock.release();
  }
}

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/shared/database/migrations';

/**
 * Runs `work` on a NEW database of the jest worker's PostgreSQL server (empty: the service migrates it
 * when an app starts on it), then drops it, whatever `work` did. PostgreSQL runs only.
 */
export async function withNewDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const workerUrl = new URL(process.env.TEST_DATABASE_URL as string);
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(workerUrl);
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: workerUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    return await work(url.toString());
  } finally {
    // pg's pool.end() resolves before its clients' sockets close: a FORCE drop in that moment terminates a
    // client that no longer listens for errors (an unhandled 'error', seen in CI). Wait, at most 2 s, for
    // the database's sessions to go; FORCE is for what is left after that.
    for (let i = 0; i < 40; i++) {
      const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * A migration's test: runs `seed` on a NEW database migrated up to (not including) `migration`, then runs
 * every migration left and hands the migrated database to `check`. PostgreSQL runs only.
 */
export async function acrossMigration(
  prefix: string,
  migration: (typeof MIGRATIONS)[number],
  seed: (before: DataSource) => Promise<void>,
  check: (after: DataSource) => Promise<void>,
): Promise<void> {
  const index = MIGRATIONS.indexOf(migration);
  if (index <= 0) throw new Error(`${migration.name} is not among the migrations after the first`);
  await withNewDatabase(prefix, async (url) => {
    // the migrations given run, then `work` on the database, then the data source closes whatever happened
    const migrated = async (migrations: Function[], work: (db: DataSource) => Promise<void>) => {
      const db = new DataSource({
        type: 'postgres',
        url,
        entities: [],
        migrations,
        migrationsTableName: 'schema_migrations',
        migrationsTransactionMode: 'each',
        logging: false,
      });
      await db.initialize();
      try {
        await db.runMigrations({ transaction: 'each' });
        await work(db);
      } finally {
        await db.destroy();
      }
    };
    await migrated(MIGRATIONS.slice(0, index), seed);
    await migrated(MIGRATIONS, check);
  });
}

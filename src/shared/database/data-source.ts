import { mkdirSync, readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { types as pgTypes } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { MIGRATIONS } from './migrations';

/** Connections of an instance's PostgreSQL pool (PGlite has one session). */
export const POOL_MAX_CONNECTIONS = 10;

/** The connections an instance's database has at once: the pool's on PostgreSQL, PGlite's one session. */
export function connectionsOf(database: DatabaseConfig): number {
  return database.kind === 'postgres' ? POOL_MAX_CONNECTIONS : 1;
}
/** How long a pooled PostgreSQL connection stays open unused. */
export const POOL_IDLE_TIMEOUT_MS = 60_000;

/** CONTRACT §6: how long an identical request waits for one in flight. */
export const LOCK_TIMEOUT_MS = 10_000;

const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;

// Both stores return int8, numeric and date as strings: money is never a float, a calendar date
// never a Date at some time zone's midnight.
pgTypes.setTypeParser(INT8, (v: string) => v);
pgTypes.setTypeParser(DATE, (v: string) => v);
const BYTEA = 17;
const PGLITE_PARSERS = {
  [INT8]: (v: string) => v,
  [DATE]: (v: string) => v,
  [NUMERIC]: (v: string) => v,
  // CONTRACT §20: PGlite's own bytea codec goes through one JS string per byte, which blocked the event loop
  // for seconds on a large upload; Node's native hex codec does the same in milliseconds
  [BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex'),
};
const PGLITE_SERIALIZERS = {
  [BYTEA]: (v: unknown) => {
    if (!(v instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Buffer or Uint8Array');
    return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  },
};

/** One PGlite per process and data directory (TOOLCHAIN.md). */
const pgliteInstances = new Map<string, Promise<PGlite>>();

export function openPGlite(dataDir: string | null, loadFrom?: string): Promise<PGlite> {
  const key = dataDir ?? ':memory:';
  let instance = pgliteInstances.get(key);
  if (!instance) {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    // loaded only when the embedded store is used: a service on PostgreSQL never holds its code
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PGlite: Embedded } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
    // a dumped data directory skips initdb and the migrations it holds (~0.6 s instead of ~3 s)
    const loadDataDir = dataDir === null && loadFrom ? new Blob([readFileSync(loadFrom)]) : undefined;
    instance = Embedded.create({ dataDir: dataDir ?? undefined, parsers: PGLITE_PARSERS, serializers: PGLITE_SERIALIZERS, loadDataDir });
    pgliteInstances.set(key, instance);
    instance.catch(() => pgliteInstances.delete(key));
  }
  return instance;
}

export async function closePGlite(dataDir: string | null): Promise<void> {
  const key = dataDir ?? ':memory:';
  const instance = pgliteInstances.get(key);
  if (!instance) return;
  pgliteInstances.delete(key);
  await (await instance).close();
}

/** What TypeORM is handed of the service's pool (PgPool; named structurally: pg-pool.ts imports this file). */
export interface TypeOrmPool {
  typeormDriver(): { Pool: new () => unknown };
}

/**
 * TypeORM's options over the service's pool (pg-pool.ts): TypeORM runs the migrations and the
 * transactions' EntityManager; it is handed the pool and never makes one, so it has no connection
 * settings of its own.
 */
export function dataSourceOptions(pool: TypeOrmPool): DataSourceOptions {
  return {
    type: 'postgres',
    // repositories speak SQL through the transaction's EntityManager; the schema comes only from migrations
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
    driver: pool.typeormDriver(),
  };
}

/** TypeORM over the pool, connected; destroyDataSource leaves the pool open (PgPool.end closes it). */
export async function createDataSource(pool: TypeOrmPool): Promise<DataSource> {
  return new DataSource(dataSourceOptions(pool)).initialize();
}

export async function destroyDataSource(dataSource: DataSource): Promise<void> {
  if (dataSource.isInitialized) await dataSource.destroy();
}

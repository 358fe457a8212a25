import { mkdirSync, readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { types as pgTypes } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { guardPoolClients } from './database-failure';
import { poolConnectionFor } from './host-selection';
import { SerializedPGlitePool } from './serialized-pglite-pool';
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
  // CONTRACT §20 (issue 43): PGlite's own bytea codec goes through one JS string per byte (a 10 MB upload
  // blocked the event loop ~10 s); Node's native hex codec does the same in milliseconds
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

function openPGlite(dataDir: string | null, loadFrom?: string): Promise<PGlite> {
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

/** TypeORM options for either store: same entities, same migrations, never `synchronize`. */
export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    // repositories speak SQL through the transaction's EntityManager; the schema comes only from migrations
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
    logging: false,
  };
  if (database.kind === 'postgres') {
    // several hosts or target_session_attrs (CONTRACT §16): node-postgres reads the URI of the first
    // host, the pool's client picks the writable one per connection (host-selection.ts)
    const connection = poolConnectionFor(database.url);
    return {
      ...common,
      url: connection.connectionString,
      extra: {
        max: POOL_MAX_CONNECTIONS,
        connectionTimeoutMillis: 5000,
        // an idle connection is closed after this (pg's default: 10 s): longer than the idle dispatcher's
        // safety poll (SAFETY_POLL_MS), so an idle instance keeps one session instead of starting a backend
        // (itself a transaction) for every look (issue 47)
        idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
        application_name: 'partner-api',
        // parameterized statements are prepared once per connection (named-statement-client.ts); a
        // connection whose host became read-only or is going away is dropped (host-selection.ts)
        Client: connection.Client,
        // No statement of this service waits longer than this for a lock: an identical idempotent request
        // in flight answers 409 idempotency_request_in_progress after it (CONTRACT §6). Set per session
        // rather than per transaction, which would cost a round trip on every write.
        options: `-c lock_timeout=${LOCK_TIMEOUT_MS}`,
      },
    };
  }
  const pool = new SerializedPGlitePool(() => openPGlite(database.dataDir, database.loadFrom));
  return {
    ...common,
    // TypeORM's postgres driver takes a `pg`-shaped module; ours hands out the one PGlite session
    // to one holder at a time.
    driver: { Pool: function Pool() { return pool; } },
  } as DataSourceOptions;
}

export async function createDataSource(database: DatabaseConfig): Promise<DataSource> {
  const dataSource = new DataSource(dataSourceOptions(database));
  await dataSource.initialize();
  if (database.kind === 'postgres') guardPoolClients((dataSource.driver as unknown as { master?: unknown }).master);
  return dataSource;
}

export async function destroyDataSource(dataSource: DataSource, database: DatabaseConfig): Promise<void> {
  if (dataSource.isInitialized) await dataSource.destroy();
  if (database.kind === 'pglite') await closePGlite(database.dataDir);
}

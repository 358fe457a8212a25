import { Pool } from 'pg';
import type { DatabaseConfig } from '../config/app-config';
import { guardPoolClients } from './database-failure';
import { poolConnectionFor } from './host-selection';
import { closePGlite, LOCK_TIMEOUT_MS, openPGlite, POOL_IDLE_TIMEOUT_MS, POOL_MAX_CONNECTIONS } from './data-source';
import { SerializedPGlitePool } from './serialized-pglite-pool';

/** node-postgres's callback forms, which both pools (pg's and the serialized PGlite one) and their clients implement. */
export interface PoolClient {
  query(text: string, values: unknown[] | undefined, callback: (err: Error | null, result: { rows: unknown[] }) => void): void;
}

/** What the service uses of a node-postgres pool; pg.Pool and SerializedPGlitePool both are one. */
export interface PoolDriver {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(callback: (err: unknown, client: PoolClient, release: (err?: unknown) => void) => void): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  end(callback?: (err?: unknown) => void): unknown;
  readonly totalCount?: number;
  readonly idleCount?: number;
  readonly waitingCount?: number;
  readonly inUseCount?: number;
}

/** The pool's gauges (/metrics, tests): connections open, idle, in use, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  inUse: number;
  waiting: number;
}

/**
 * The service's one pool of database connections, created from the configuration (bootstrap.ts,
 * migrate.ts) and closed on shutdown: a node-postgres `Pool` on PostgreSQL, or on the embedded store
 * (no DATABASE_URL) the serialized pool that hands PGlite's one session to one holder at a time. Every
 * statement of the service goes through it: `Sql` (straight on it) and TypeORM (migrations and the
 * `EntityManager` of a transaction), which is handed this same pool as its driver's (`typeormDriver`) and
 * never makes one of its own. So on PGlite a transaction and a statement outside it still queue for the
 * one session, exactly as when TypeORM held it.
 */
export class PgPool {
  private ended = false;

  constructor(
    readonly kind: DatabaseConfig['kind'],
    readonly driver: PoolDriver,
    private readonly close: () => Promise<void>,
  ) {}

  /** The pool of the configured store; nothing connects until the first statement. */
  static open(database: DatabaseConfig): PgPool {
    if (database.kind === 'postgres') {
      // several hosts or target_session_attrs (CONTRACT §16): node-postgres reads the URI of the first
      // host, the pool's client picks the writable one per connection (host-selection.ts)
      const connection = poolConnectionFor(database.url);
      const pool = new Pool({
        connectionString: connection.connectionString,
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
      });
      guardPoolClients(pool);
      return new PgPool('postgres', pool as unknown as PoolDriver, () => pool.end());
    }
    const pool = new SerializedPGlitePool(() => openPGlite(database.dataDir, database.loadFrom));
    return new PgPool('pglite', pool as unknown as PoolDriver, () => closePGlite(database.dataDir));
  }

  /** The embedded store's serialized pool (its LISTEN goes through it), null on PostgreSQL. */
  get embedded(): SerializedPGlitePool | null {
    return this.driver instanceof SerializedPGlitePool ? this.driver : null;
  }

  get stats(): PoolStats {
    const d = this.driver;
    const total = d.totalCount ?? 0;
    const idle = d.idleCount ?? 0;
    return { total, idle, inUse: d.inUseCount ?? total - idle, waiting: d.waitingCount ?? 0 };
  }

  /**
   * What TypeORM's postgres driver is given as its `pg` module: a `Pool` constructor that returns this
   * pool (TypeORM's connection options are ignored: the pool is made above). TypeORM's `destroy()` ends
   * its pool; it gets this one with `end` left to the service, which closes the pool after the data source.
   */
  typeormDriver(): { Pool: new () => unknown } {
    const pool = this.driver;
    const borrowed = new Proxy(pool, {
      get(target, name) {
        if (name === 'end') return (callback?: (err?: unknown) => void) => callback?.();
        const value: unknown = Reflect.get(target, name, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return {
      Pool: function Pool() {
        return borrowed;
      } as unknown as new () => unknown,
    };
  }

  /** Closes every connection (the embedded store: closes PGlite); a second call does nothing. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.close();
  }
}

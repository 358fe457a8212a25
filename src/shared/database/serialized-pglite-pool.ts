import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';

type Release = (err?: unknown) => void;

/**
 * A `pg.Pool` look-alike over one PGlite instance that hands out its single session to one holder at a
 * time (TOOLCHAIN.md: PGlite is one session; two overlapping TypeORM transactions on it would share
 * BEGIN/ROLLBACK and lose each other's writes). Every TypeORM query runner connects through
 * `connect()`, so a transaction holds the session from BEGIN to COMMIT/ROLLBACK and everything else
 * queues. This only serializes access inside the one process that owns the PGlite files; correctness
 * across instances is PostgreSQL's job and never relies on this.
 *
 * Consequence for callers: code that holds a transaction must run every query through that
 * transaction's EntityManager; a query outside it would wait for itself.
 */
export class SerializedPGlitePool extends EventEmitter {
  private busy = false;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly db: () => Promise<PGlite>) {
    super();
  }

  connect(callback?: (err: unknown, client: unknown, release: Release) => void): Promise<unknown> | void {
    const acquire = async (): Promise<[unknown, Release]> => {
      await this.acquire();
      const pglite = await this.db().catch((err) => {
        this.releaseSession();
        throw err;
      });
      let released = false;
      const client = new PGliteClient(pglite);
      const release: Release = () => {
        if (released) return;
        released = true;
        this.releaseSession();
      };
      return [client, release];
    };
    if (!callback) return acquire().then(([client]) => client);
    acquire().then(
      ([client, release]) => callback(null, client, release),
      (err) => callback(err, null, () => undefined),
    );
  }

  /** Pool-level query: takes the session for one statement. */
  async query(text: string, params?: unknown[] | ((...a: unknown[]) => void), cb?: (...a: unknown[]) => void) {
    await this.acquire();
    try {
      const client = new PGliteClient(await this.db());
      return await client.query(text, params as unknown[], cb);
    } finally {
      this.releaseSession();
    }
  }

  /**
   * LISTEN on `channel` with the session held (never inside another holder's transaction, whose rollback
   * would undo it): `onNotify` is called for each NOTIFY on it once its transaction commits. Resolves to
   * the UNLISTEN, which takes the session too.
   */
  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    await this.acquire();
    try {
      const unlisten = await (await this.db()).listen(channel, () => onNotify());
      return async () => {
        await this.acquire();
        try {
          await unlisten();
        } finally {
          this.releaseSession();
        }
      };
    } finally {
      this.releaseSession();
    }
  }

  /** For the pool gauges of /metrics: 1 while a holder has the session. */
  get inUseCount(): number {
    return this.busy ? 1 : 0;
  }

  get waitingCount(): number {
    return this.waiters.length;
  }

  end(cb?: (err?: unknown) => void): void {
    cb?.();
  }

  private acquire(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private releaseSession(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.busy = false;
  }
}

/** The subset of `pg.Client` that TypeORM's postgres driver uses. */
class PGliteClient extends EventEmitter {
  constructor(private readonly pglite: PGlite) {
    super();
  }

  async query(text: string, params?: unknown[] | ((...a: unknown[]) => void), cb?: (...a: unknown[]) => void) {
    let callback = cb;
    let values = params;
    if (typeof params === 'function') {
      callback = params as (...a: unknown[]) => void;
      values = undefined;
    }
    const hasParams = Array.isArray(values) && values.length > 0;
    try {
      const raw = hasParams ? await this.pglite.query(text, values as unknown[]) : ((await this.pglite.exec(text)).at(-1) ?? { rows: [], fields: [] });
      const r = raw as { rowCount?: number; affectedRows?: number; command?: string };
      const result = { ...raw, rowCount: r.rowCount ?? r.affectedRows ?? raw.rows.length, command: r.command };
      callback?.(null, result);
      return result;
    } catch (err) {
      if (callback) {
        callback(err, null);
        return undefined;
      }
      throw err;
    }
  }

  release(): void {
    // released through the pool's callback
  }
}

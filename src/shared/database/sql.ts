import { Injectable } from '@nestjs/common';
import { translateDatabaseError } from './database-failure';
import { PgPool, type PoolClient, type PoolDriver } from './pg-pool';

/** A statement on the connection a session holds; failures as their domain errors, like Sql.query. */
export type SessionQuery = <Row extends object = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;

/**
 * One statement outside any transaction, straight on the service's pool (PgPool): the hot reads of every request
 * (the token look-up) skip TypeORM's query-runner bookkeeping. On PostgreSQL the pool's clients prepare
 * each statement once per connection (named-statement-client.ts); on PGlite the pool is the serialized
 * one, so a statement still waits for a transaction in progress.
 */
@Injectable()
export class Sql {
  private readonly pool: PoolDriver;

  constructor(pool: PgPool) {
    this.pool = pool.driver;
  }

  /** The rows, typed by the caller; a database failure is thrown as its domain error (database-failure.ts). */
  async query<Row extends object = Record<string, unknown>>(text: string, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query(text, values)).rows as Row[];
    } catch (err) {
      throw translateDatabaseError(err);
    }
  }

  /**
   * Several statements on ONE connection of the pool, held until `work` settles (e.g. a transaction
   * it opens and ends itself). A connection whose work failed is discarded, not returned to the pool:
   * it may be lost or still inside a transaction.
   */
  async session<T>(work: (query: SessionQuery) => Promise<T>): Promise<T> {
    const [client, release] = await new Promise<[PoolClient, (err?: unknown) => void]>((resolve, reject) =>
      this.pool.connect((err, c, r) => (err ? reject(translateDatabaseError(err)) : resolve([c, r]))),
    );
    // pg's callback form, as its pool's own query uses, not its promise form: measured, a session of
    // BEGIN, statement, COMMIT through the promise form keeps finished sessions alive into the old
    // generation, which raised the service's peak RSS (bench/RESULTS.md, "Figures behind code comments")
    const query: SessionQuery = <Row extends object>(text: string, values?: unknown[]) =>
      new Promise<Row[]>((resolve, reject) =>
        client.query(text, values, (err, result) => (err ? reject(translateDatabaseError(err)) : resolve(result.rows as Row[]))),
      );
    try {
      const result = await work(query);
      release();
      return result;
    } catch (err) {
      release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  }
}

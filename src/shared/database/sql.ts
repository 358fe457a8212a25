import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { translateDatabaseError } from './database-failure';

interface Pool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * One statement outside any transaction, straight on the driver's pool: the hot reads of every request
 * (the token look-up) skip TypeORM's query-runner bookkeeping. On PostgreSQL the pool's clients prepare
 * each statement once per connection (named-statement-client.ts); on PGlite the pool is the serialized
 * one, so a statement still waits for a transaction in progress.
 */
@Injectable()
export class Sql {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
  }

  /** The rows, typed by the caller; a database failure is thrown as its domain error (database-failure.ts). */
  async query<Row extends object = Record<string, unknown>>(text: string, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query(text, values)).rows as Row[];
    } catch (err) {
      throw translateDatabaseError(err);
    }
  }
}

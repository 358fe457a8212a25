import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { databaseFailure } from '../../../shared/database/database-failure';
import { Sql } from '../../../shared/database/sql';
import { LockTimeoutError } from '../../../shared/domain/errors';
import type { ClaimInsert } from '../../../shared/domain/row-insert';
import { type IdempotencyRecord, IdempotencyRepository, type IdempotencyScope } from '../domain/idempotency.repository';

interface Row {
  operation: string;
  fingerprint: string;
  grant_id: string | null;
  response: Record<string, unknown> | null;
}

// One indexed equality look-up with every scope column as a parameter (TOOLCHAIN.md).
const SELECT_SQL = `SELECT operation, fingerprint, grant_id, response FROM idempotency_records
  WHERE organization_id = $1 AND environment = $2 AND app_id = $3 AND idempotency_key = $4`;

const CLAIM_COLUMNS = [
  ['organization_id', 'uuid'],
  ['environment', 'text'],
  ['app_id', 'uuid'],
  ['idempotency_key', 'text'],
  ['operation', 'text'],
  ['fingerprint', 'text'],
  ['grant_id', 'uuid'],
  ['response', 'jsonb'],
] as const;

@Injectable()
export class TypeOrmIdempotencyRepository extends IdempotencyRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: Sql,
  ) {
    super();
  }

  claimRow(s: IdempotencyScope, r: IdempotencyRecord): ClaimInsert {
    return {
      table: 'idempotency_records',
      columns: CLAIM_COLUMNS,
      values: [s.organizationId, s.environment, s.appId, s.key, r.operation, r.fingerprint, r.grantId, JSON.stringify(r.response)],
      conflictColumns: ['organization_id', 'environment', 'app_id', 'idempotency_key'],
    };
  }

  async find(s: IdempotencyScope): Promise<IdempotencyRecord | null> {
    const [row] = await this.sql.query<Row>(SELECT_SQL, [s.organizationId, s.environment, s.appId, s.key]);
    if (!row?.response) return null;
    return { operation: row.operation, fingerprint: row.fingerprint, grantId: row.grant_id, response: row.response };
  }

  async claim(
    m: EntityManager,
    s: IdempotencyScope,
    r: Omit<IdempotencyRecord, 'response'> & { response: Record<string, unknown> | null },
  ): Promise<IdempotencyRecord | null> {
    // One indexed equality look-up with every scope column as a parameter (TOOLCHAIN.md).
    let inserted: unknown[];
    try {
      inserted = await m.query(
        `INSERT INTO idempotency_records
           (organization_id, environment, app_id, idempotency_key, operation, fingerprint, grant_id, response)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (organization_id, environment, app_id, idempotency_key) DO NOTHING
         RETURNING 1`,
        [s.organizationId, s.environment, s.appId, s.key, r.operation, r.fingerprint, r.grantId, r.response === null ? null : JSON.stringify(r.response)],
      );
    } catch (err) {
      // this statement waits only on the uncommitted record of the same key (its primary key)
      if (databaseFailure(err) === 'lock_timeout') throw new LockTimeoutError(err, true);
      throw err;
    }
    if (inserted.length > 0) return null;
    const rows: Row[] = await m.query(SELECT_SQL, [s.organizationId, s.environment, s.appId, s.key]);
    const row = rows[0];
    if (!row || !row.response) throw new Error('idempotency record vanished or is incomplete after a conflict');
    return { operation: row.operation, fingerprint: row.fingerprint, grantId: row.grant_id, response: row.response };
  }

  async complete(m: EntityManager, s: IdempotencyScope, response: Record<string, unknown>): Promise<void> {
    await m.query(
      `UPDATE idempotency_records SET response = $5
        WHERE organization_id = $1 AND environment = $2 AND app_id = $3 AND idempotency_key = $4`,
      [s.organizationId, s.environment, s.appId, s.key, JSON.stringify(response)],
    );
  }

  async purgeCreatedBefore(cutoff: Date, limit: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `DELETE FROM idempotency_records WHERE ctid IN (
         SELECT ctid FROM idempotency_records WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [cutoff, limit],
    );
    return rows.length;
  }
}

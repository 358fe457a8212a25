import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
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

/**
 * One purge batch: at most $2 records created before $1, oldest first, rows a write holds skipped (SKIP
 * LOCKED), so the purge never waits for a write nor a write for it. The ORDER BY keeps the plan on
 * idempotency_records_created_at_idx: without it PostgreSQL chose a sequential scan whenever its
 * statistics counted many expired rows, and on a large table that read the whole table for the run's
 * last, empty batch (bench/RESULTS.md, "Figures behind code comments"). bench/purge-at-volume.mjs runs this same statement.
 */
export const PURGE_SQL = `WITH purged AS (
     DELETE FROM idempotency_records WHERE ctid IN (
       SELECT ctid FROM idempotency_records WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS n FROM purged`;

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
export class PgIdempotencyRepository extends IdempotencyRepository {
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
      responseColumn: 'response',
    };
  }

  async find(s: IdempotencyScope): Promise<IdempotencyRecord | null> {
    const [row] = await this.sql.query<Row>(SELECT_SQL, [s.organizationId, s.environment, s.appId, s.key]);
    if (!row?.response) return null;
    return { operation: row.operation, fingerprint: row.fingerprint, grantId: row.grant_id, response: row.response };
  }

  async purgeCreatedBefore(cutoff: Date, limit: number): Promise<number> {
    // counted by a SELECT at the top: TypeORM answers a DELETE's rows as [rows, count] on PostgreSQL, so
    // the length of what a DELETE … RETURNING answered was always 2 and the purge stopped after one batch
    const [row]: Array<{ n: number | string }> = await this.dataSource.query(PURGE_SQL, [cutoff, limit]);
    return Number(row?.n ?? 0);
  }
}

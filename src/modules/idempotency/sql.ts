import type { PurgeParts } from '../../shared/database/purge-parts';
import { raw, sql, type SqlExpr, type SqlFragment } from '../../shared/database/sql-template';
/**
 * SQL parts of the idempotency module's table (idempotency_records), for statements that other
 * modules compose (one round trip): the owner writes every word about its table, the composer only
 * combines the parts. Imports nothing but src/shared (docs/architecture.md).
 */
export const IdempotencySql = {
  /**
   * Left-joins the record under `key` (a text expression; nothing is joined when it is null) in the
   * scope of the caller (`scope`: the alias of a row with organization_id, environment, app_id), by all
   * four columns of its primary key, as `alias`.
   */
  leftJoinRecord: (alias: string, key: SqlExpr, scope: string): SqlFragment => {
    const [r, s] = [raw(alias), raw(scope)];
    return sql`LEFT JOIN idempotency_records ${r}
  ON ${key} IS NOT NULL AND ${r}.organization_id = ${s}.organization_id AND ${r}.environment = ${s}.environment
 AND ${r}.app_id = ${s}.app_id AND ${r}.idempotency_key = ${key}`;
  },
  /** The joined record, as columns idem_operation, idem_fingerprint, idem_grant_id, idem_response. */
  recordColumns: (alias: string): string => `${alias}.operation AS idem_operation, ${alias}.fingerprint AS idem_fingerprint, ${alias}.grant_id AS idem_grant_id,
  ${alias}.response AS idem_response`,
} as const;

/** Issue 35: the idempotency records of purged organizations. */
export const IdempotencyPurge: PurgeParts = {
  organizations: [`DELETE FROM idempotency_records WHERE organization_id = ANY($1::uuid[])`],
};

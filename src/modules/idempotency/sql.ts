import type { PurgeParts } from '../../shared/database/purge-parts';
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
  leftJoinRecord: (alias: string, key: string, scope: string): string => `LEFT JOIN idempotency_records ${alias}
  ON ${key} IS NOT NULL AND ${alias}.organization_id = ${scope}.organization_id AND ${alias}.environment = ${scope}.environment
 AND ${alias}.app_id = ${scope}.app_id AND ${alias}.idempotency_key = ${key}`,
  /** The joined record, as columns idem_operation, idem_fingerprint, idem_grant_id, idem_response. */
  recordColumns: (alias: string): string => `${alias}.operation AS idem_operation, ${alias}.fingerprint AS idem_fingerprint, ${alias}.grant_id AS idem_grant_id,
  ${alias}.response AS idem_response`,
} as const;

/** Issue 35: the idempotency records of purged organizations. */
export const IdempotencyPurge: PurgeParts = {
  organizations: [`DELETE FROM idempotency_records WHERE organization_id = ANY($1::uuid[])`],
};

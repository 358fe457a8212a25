import type { PurgeParts } from '../../shared/database/purge-parts';

/**
 * SQL parts of the receipts module's tables (operation_receipts), for statements that other modules compose: the
 * owner writes every word about its tables, the composer only combines the parts. Imports nothing but
 * src/shared (docs/architecture.md).
 */
/** Issue 35: the receipts of purged organizations. */
export const ReceiptsPurge: PurgeParts = {
  organizations: [`DELETE FROM operation_receipts WHERE organization_id = ANY($1::uuid[])`],
};

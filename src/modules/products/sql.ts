import type { PurgeParts } from '../../shared/database/purge-parts';

/**
 * SQL parts of the products module's tables (products), for statements that other modules compose: the
 * owner writes every word about its tables, the composer only combines the parts. Imports nothing but
 * src/shared (docs/architecture.md).
 */
/** Issue 35: the products of purged organizations. */
export const ProductsPurge: PurgeParts = {
  organizations: [`DELETE FROM products WHERE organization_id = ANY($1::uuid[])`],
};

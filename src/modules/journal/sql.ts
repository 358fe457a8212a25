import type { PurgeParts } from '../../shared/database/purge-parts';

/**
 * SQL parts of the journal module's tables (periods, voucher_counters, journal_entries, journal_lines), for statements that other modules compose: the
 * owner writes every word about its tables, the composer only combines the parts. Imports nothing but
 * src/shared (docs/architecture.md).
 */
/** Issue 35: the journal of purged organizations (lines before entries). */
export const JournalPurge: PurgeParts = {
  organizations: [
    `DELETE FROM journal_lines WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM journal_entries WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM periods WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM voucher_counters WHERE organization_id = ANY($1::uuid[])`,
  ],
};

import type { PurgeParts } from '../../shared/database/purge-parts';
import { sql, type SqlExpr, type SqlFragment } from '../../shared/database/sql-template';

/**
 * SQL parts of the journal module's tables (journal_entries, journal_lines, periods, voucher_counters)
 * for statements other modules compose. The journal decides what an entry is: the attachments module
 * asks it through these. Imports nothing but src/shared (docs/architecture.md).
 */

/** CONTRACT §17: an app reads and attaches only to the entries it posted, in its environment and organization. */
const appEntryOf = (p: { organizationId: SqlExpr; entryId: SqlExpr; environment: SqlExpr; appId: SqlExpr }): SqlFragment =>
  sql`SELECT voucher_year, voucher_number FROM journal_entries
       WHERE organization_id = ${p.organizationId} AND id = ${p.entryId} AND environment = ${p.environment} AND app_id = ${p.appId}`;

export const JournalSql = {
  /** The app's own entry (voucher_year, voucher_number), all four expressions of the composing statement; no row for any other. */
  appEntryOf,
} as const;

/** Issue 35: the journal of purged organizations (lines before entries). */
export const JournalPurge: PurgeParts = {
  organizations: [
    `DELETE FROM journal_lines WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM journal_entries WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM periods WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM voucher_counters WHERE organization_id = ANY($1::uuid[])`,
  ],
};

import type { PurgeParts } from '../../shared/database/purge-parts';

/**
 * SQL parts of the attachments module's tables (attachments, attachment_contents, attachment_counters)
 * for statements other modules compose (the journal's entry reads, one statement per request). Imports
 * nothing but src/shared (docs/architecture.md).
 */

/** ISO 8601 UTC with milliseconds, as every time of the partner API is written. */
const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const AttachmentsSql = {
  /**
   * CONTRACT §20: the attachment bytes the organization `org` (an SQL expression) holds as
   * SANDBOX_STORAGE_MAX_BYTES counts them, as a scalar sub-select (0 when nothing is counted).
   */
  storageUsed: (org: string): string => `(SELECT coalesce((SELECT s.bytes FROM attachment_storage s WHERE s.organization_id = ${org}), 0))`,
  /**
   * The attachments of the entry (organization `org`, id `entry`: SQL expressions) as a JSON array of
   * CONTRACT §17's `<attachment>`, in the order they were attached; `[]` when none.
   */
  attachmentsOf: (org: string, entry: string): string =>
    `SELECT coalesce(json_agg(json_build_object('id', t.id, 'filename', t.filename, 'content_type', t.content_type,
              'size', t.size, 'sha256', t.sha256, 'created_at', ${iso('t.created_at')}) ORDER BY t.number), '[]'::json)
       FROM attachments t WHERE t.organization_id = ${org} AND t.entry_id = ${entry}`,
  /** A condition: the entry has at least one attachment. */
  hasAttachment: (org: string, entry: string): string => `EXISTS (SELECT 1 FROM attachments t WHERE t.organization_id = ${org} AND t.entry_id = ${entry})`,
} as const;

/** Issue 35: the attachments of purged organizations (before their journal entries). */
export const AttachmentsPurge: PurgeParts = {
  organizations: [
    `DELETE FROM attachments WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM attachment_counters WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM attachment_contents WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM attachment_storage WHERE organization_id = ANY($1::uuid[])`,
  ],
};

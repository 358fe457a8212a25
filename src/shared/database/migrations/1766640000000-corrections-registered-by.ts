import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §19 (version 6): corrections as new entries, and who registered an entry.
 *
 * - `journal_entries.reverses`: the entry a reversal reverses (null for any other entry). The partial
 *   unique index `journal_entries_reverses_key` lets an entry be reversed at most once, whatever number of
 *   instances race to do it: the second insert waits for the first and then fails (409 resource_conflict).
 * - `journal_entries.app_name` and `grant_id`: who registered the entry, kept as they were at posting (a
 *   later rename of the app changes nothing). Entries posted before are backfilled with the app's name now (null
 *   for an app no longer stored) and the production grant of (organization, app) that was in force at their `created_at` (granted
 *   before, neither revoked nor superseded nor expired then), or null where none was: docs/adr/0012-registered-by-backfill.md.
 */
export class CorrectionsRegisteredBy1766640000000 implements MigrationInterface {
  name = 'CorrectionsRegisteredBy1766640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE journal_entries ADD COLUMN reverses uuid, ADD COLUMN app_name text, ADD COLUMN grant_id uuid`);
    await q.query(
      `ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_reverses_fkey
         FOREIGN KEY (organization_id, reverses) REFERENCES journal_entries (organization_id, id)`,
    );
    await q.query(`CREATE UNIQUE INDEX journal_entries_reverses_key ON journal_entries (organization_id, reverses) WHERE reverses IS NOT NULL`);
    await q.query(`UPDATE journal_entries e SET app_name = a.name FROM apps a WHERE a.id = e.app_id`);
    await q.query(
      `UPDATE journal_entries e
          SET grant_id = (SELECT g.id FROM grants g
                           WHERE g.organization_id = e.organization_id AND g.app_id = e.app_id
                             AND g.granted_at <= e.created_at AND g.expires_at > e.created_at
                             AND (g.revoked_at IS NULL OR g.revoked_at > e.created_at)
                             AND (g.superseded_at IS NULL OR g.superseded_at > e.created_at)
                           ORDER BY g.granted_at DESC, g.id LIMIT 1)
        WHERE e.environment = 'production'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX journal_entries_reverses_key`);
    await q.query(`ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_reverses_fkey`);
    await q.query(`ALTER TABLE journal_entries DROP COLUMN reverses, DROP COLUMN app_name, DROP COLUMN grant_id`);
  }
}

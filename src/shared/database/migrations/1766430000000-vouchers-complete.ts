import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §17 (vouchers complete) and §7 (accounts in natural order):
 *
 * - `journal_entries.commit_xid`: the writer's transaction id, as the outbox has it (ADR 0006), so that
 *   `GET {base}/journal/entries` lists an app's entries in commit order with the events feed's horizon
 *   (docs/adr/0011-journal-entries-commit-order.md). Existing rows get 0 (constant default, no rewrite).
 * - the attachments module's tables: `attachment_contents` (the bytes, one row per distinct content per
 *   organization), `attachments` (one row per attachment of an entry, numbered 1…20 per entry) and
 *   `attachment_counters` (the per-entry count whose row lock serializes attaching to one entry).
 * - `natural_sort_key(text)`: runs of ASCII digits padded to 20 digits, so that `ORDER BY
 *   natural_sort_key(number) COLLATE "C"` reads 1000, 7000, 12000 (an account number has at most 20
 *   characters, so no run is longer).
 */
export class VouchersComplete1766430000000 implements MigrationInterface {
  name = 'VouchersComplete1766430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE journal_entries ADD COLUMN commit_xid xid8 NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE journal_entries ALTER COLUMN commit_xid SET DEFAULT pg_current_xact_id()`);
    await q.query(`CREATE INDEX journal_entries_read_idx ON journal_entries (organization_id, app_id, environment, commit_xid, id)`);
    await q.query(
      `CREATE FUNCTION natural_sort_key(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
         SELECT coalesce(string_agg(CASE WHEN m[1] IS NOT NULL THEN lpad(m[1], 20, '0') ELSE m[2] END, '' ORDER BY r.ord), '')
           FROM regexp_matches(t, '([0-9]+)|([^0-9]+)', 'g') WITH ORDINALITY AS r(m, ord)
       $$`,
    );
    await q.query(
      `CREATE TABLE attachment_contents (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
         size integer NOT NULL CHECK (size > 0),
         content bytea NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, sha256)
       )`,
    );
    await q.query(
      `CREATE TABLE attachment_counters (
         organization_id uuid NOT NULL,
         entry_id uuid NOT NULL,
         last_number integer NOT NULL CHECK (last_number BETWEEN 1 AND 20),
         PRIMARY KEY (organization_id, entry_id),
         FOREIGN KEY (organization_id, entry_id) REFERENCES journal_entries (organization_id, id)
       )`,
    );
    await q.query(
      `CREATE TABLE attachments (
         organization_id uuid NOT NULL,
         id uuid NOT NULL,
         entry_id uuid NOT NULL,
         number integer NOT NULL CHECK (number BETWEEN 1 AND 20),
         filename text NOT NULL,
         content_type text NOT NULL,
         size integer NOT NULL,
         sha256 text NOT NULL,
         created_at timestamptz NOT NULL,
         PRIMARY KEY (organization_id, id),
         UNIQUE (organization_id, entry_id, number),
         FOREIGN KEY (organization_id, entry_id) REFERENCES journal_entries (organization_id, id),
         FOREIGN KEY (organization_id, sha256) REFERENCES attachment_contents (organization_id, sha256)
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE attachments`);
    await q.query(`DROP TABLE attachment_counters`);
    await q.query(`DROP TABLE attachment_contents`);
    await q.query(`DROP FUNCTION natural_sort_key(text)`);
    await q.query(`DROP INDEX journal_entries_read_idx`);
    await q.query(`ALTER TABLE journal_entries DROP COLUMN commit_xid`);
  }
}

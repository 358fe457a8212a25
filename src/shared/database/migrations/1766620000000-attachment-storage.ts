import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §20 (version 6), issue 43:
 * - `attachment_storage` (the attachments module's): the attachment bytes a sandbox project's organization
 *   or a demo company holds, counted against SANDBOX_STORAGE_MAX_BYTES; its row lock serializes the uploads
 *   of one such organization across instances. Every attachment counts its own size (also when its bytes are
 *   stored once for several). Production organizations have no row. Filled here from what is stored.
 * - stored names lose the bidirectional controls and take their media type's extension, as new names do
 *   (`faktura-1042\u202Efdp.hta` of a PDF is `faktura-1042fdp.pdf`; a name with nothing before its
 *   extension becomes `bilag`).
 * - `webhook_endpoints.secret_rotations` (the webhooks module's): when the endpoint's secret was rotated
 *   within the last 24 h, at most 3 (CONTRACT §20), kept with the endpoint row whose lock counts them.
 */
export class AttachmentStorage1766620000000 implements MigrationInterface {
  name = 'AttachmentStorage1766620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE attachment_storage (
         organization_id uuid PRIMARY KEY REFERENCES organizations (id),
         bytes bigint NOT NULL CHECK (bytes >= 0)
       )`);
    await q.query(`INSERT INTO attachment_storage (organization_id, bytes)
       SELECT a.organization_id, sum(a.size) FROM attachments a JOIN organizations o ON o.id = a.organization_id
        WHERE o.environment = 'sandbox' OR o.demo GROUP BY a.organization_id`);
    await q.query(`WITH named AS (
         SELECT organization_id, id, content_type,
                regexp_replace(regexp_replace(regexp_replace(
                  regexp_replace(filename, '[\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]', '', 'g'),
                  '[. ]+$', ''), '\\.[^.]*$', ''), '[. ]+$', '') AS stem,
                CASE content_type WHEN 'application/pdf' THEN '.pdf' WHEN 'image/png' THEN '.png' WHEN 'image/jpeg' THEN '.jpg' ELSE '.xml' END AS ext
           FROM attachments)
       UPDATE attachments t SET filename = left(CASE WHEN n.stem = '' THEN 'bilag' ELSE n.stem END, 255 - length(n.ext)) || n.ext
         FROM named n WHERE t.organization_id = n.organization_id AND t.id = n.id
          AND t.filename IS DISTINCT FROM left(CASE WHEN n.stem = '' THEN 'bilag' ELSE n.stem END, 255 - length(n.ext)) || n.ext`);
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN secret_rotations timestamptz[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN secret_rotations`);
    await q.query(`DROP TABLE attachment_storage`);
  }
}

import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AttachmentStorage1766620000000 } from '../../src/shared/database/migrations/1766620000000-attachment-storage';
import { acrossMigration } from '../support/new-database';
import { describeOnPostgres } from '../support/test-app';

/**
 * Migration 1766620000000 (CONTRACT §20, issue 43): what sandbox projects and demo companies already hold is
 * counted against SANDBOX_STORAGE_MAX_BYTES, production organizations are not counted, and names stored before
 * lose their bidirectional controls and take their type's extension.
 */
describeOnPostgres('migration AttachmentStorage1766620000000: storage counted, stored names cleaned', () => {
  it('counts sandbox and demo attachments (each its size), not production ones, and renames what was stored', async () => {
    const [sandbox, demo, production] = [randomUUID(), randomUUID(), randomUUID()];
    const seed = async (before: DataSource) => {
      await before.query(
        `INSERT INTO organizations (id, name, environment, demo) VALUES ($1, 'S', 'sandbox', false), ($2, 'D', 'production', true), ($3, 'P', 'production', false)`,
        [sandbox, demo, production],
      );
      const attach = async (org: string, names: Array<[string, string, number]>) => {
        const entry = randomUUID();
        await before.query(
          `INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date, currency, app_id, operation_id)
           VALUES ($1, $2, 'sandbox', 2026, 1, '2026-11-20', 'DKK', $3, $4)`,
          [org, entry, randomUUID(), randomUUID()],
        );
        await before.query(`INSERT INTO attachment_contents (organization_id, sha256, size, content) VALUES ($1, $2, 100, '\\x00')`, [org, 'a'.repeat(64)]);
        for (const [i, [filename, type, size]] of names.entries()) {
          await before.query(
            `INSERT INTO attachments (organization_id, id, entry_id, number, filename, content_type, size, sha256, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())`,
            [org, randomUUID(), entry, i + 1, filename, type, size, 'a'.repeat(64)],
          );
        }
      };
      await attach(sandbox, [
        ['faktura-1042\u202Efdp.hta', 'application/pdf', 100],
        ['scan.jpeg', 'image/jpeg', 100],
        ['.hta', 'application/xml', 100],
      ]);
      await attach(demo, [['kvittering.pdf', 'application/pdf', 250]]);
      await attach(production, [['\u2067bon\u2069.png.', 'image/png', 999]]);
    };
    await acrossMigration('attachment_storage_migration', AttachmentStorage1766620000000, seed, async (after) => {
      const storage: Array<{ organization_id: string; bytes: string }> = await after.query(`SELECT organization_id, bytes FROM attachment_storage`);
      expect(Object.fromEntries(storage.map((s) => [s.organization_id, Number(s.bytes)]))).toEqual({ [sandbox]: 300, [demo]: 250 });
      const names: Array<{ filename: string }> = await after.query(`SELECT filename FROM attachments ORDER BY filename`);
      expect(names.map((n) => n.filename)).toEqual(['bilag.xml', 'bon.png', 'faktura-1042fdp.pdf', 'kvittering.pdf', 'scan.jpg']);
      const [{ rotations }] = await after.query(
        `SELECT count(*)::int AS rotations FROM information_schema.columns WHERE table_name = 'webhook_endpoints' AND column_name = 'secret_rotations'`,
      );
      expect(rotations).toBe(1);
    });
  });
});

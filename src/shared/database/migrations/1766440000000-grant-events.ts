import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §18, grant events: each grant gets `grant.expiring` once (14 days before it expires) and
 * `grant.revoked` once (revoked, superseded or expired, whichever comes first). Two claim columns say
 * which event has been written to the outbox: a path that emits one sets its column in the same
 * UPDATE whose condition is that the column is still null, so two instances (or a revocation and the
 * expiry scan) never both emit — PostgreSQL re-checks the condition on the locked row.
 * Grants that ended before this migration are marked as told (no flood of past events); a grant in
 * force within 14 days of its end gets its `grant.expiring` from the first scan.
 * The partial indexes hold only the grants still to be told of something: the scans probe them.
 */
export class GrantEvents1766440000000 implements MigrationInterface {
  name = 'GrantEvents1766440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE grants ADD COLUMN expiring_notified_at timestamptz, ADD COLUMN end_notified_at timestamptz`);
    await q.query(`UPDATE grants SET end_notified_at = now(), expiring_notified_at = now()
                    WHERE revoked_at IS NOT NULL OR superseded_at IS NOT NULL OR expires_at <= now()`);
    await q.query(`CREATE INDEX grants_end_due_idx ON grants (expires_at) WHERE end_notified_at IS NULL`);
    await q.query(`CREATE INDEX grants_expiring_due_idx ON grants (expires_at) WHERE expiring_notified_at IS NULL AND end_notified_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX grants_expiring_due_idx`);
    await q.query(`DROP INDEX grants_end_due_idx`);
    await q.query(`ALTER TABLE grants DROP COLUMN end_notified_at, DROP COLUMN expiring_notified_at`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * At most one posting mandate in force per (organization, app): a new mandate replaces the previous
 * one (CONTRACT §8 "a separate owner (aal2) consent per (organization, app)"), so revoking it always
 * stops final posting.
 */
export class OneMandateInForce1763900000000 implements MigrationInterface {
  name = 'OneMandateInForce1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX mandates_current_idx ON mandates (organization_id, app_id) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS mandates_current_idx`);
  }
}

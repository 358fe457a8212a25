import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 43 finding 6 (CONTRACT §20), module `developers`: the password is chosen when the email's link
 * is followed, no longer at **Create account**, so `developer_signups` keeps no password hash. The
 * hashes of sign-ups still open were chosen by whoever filled in the form, not by the mailbox's owner:
 * they go with the column (those links still work; their follower chooses the password).
 */
export class SignupPasswordAtLink1766630000000 implements MigrationInterface {
  name = 'SignupPasswordAtLink1766630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE developer_signups DROP COLUMN IF EXISTS password_hash`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE developer_signups ADD COLUMN IF NOT EXISTS password_hash text`);
  }
}

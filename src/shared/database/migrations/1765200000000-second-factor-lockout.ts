import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §8 lockout: wrong one-time codes per owner, and the time until which an owner's codes are
 * refused. Written in their own committed transaction while the failing call rolls back, so there is
 * deliberately no foreign key to users: the check would wait for the user row that the failing call
 * holds FOR UPDATE.
 */
export class SecondFactorLockout1765200000000 implements MigrationInterface {
  name = 'SecondFactorLockout1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE second_factor_failures (
      user_id uuid NOT NULL,
      failed_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX second_factor_failures_user_idx ON second_factor_failures (user_id, failed_at)`);
    await q.query(`CREATE TABLE second_factor_lockouts (
      user_id uuid PRIMARY KEY,
      locked_until timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS second_factor_lockouts`);
    await q.query(`DROP TABLE IF EXISTS second_factor_failures`);
  }
}

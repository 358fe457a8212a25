import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §11 (v4): sign-in failures are counted per (email, client address), so a stranger elsewhere
 * cannot lock an owner out, and each attempt is recorded before its password is checked (a row of
 * `sign_in_failures` that a successful sign-in removes again). The lockout row of a pair is what
 * serializes its attempts (`FOR UPDATE` through an upsert). Failures and lockouts last 15 minutes, so
 * the old per-email rows are dropped rather than converted. No foreign key from failures to lockouts:
 * the purge removes either without regard to the other, and the next attempt makes the row again.
 */
export class SignInPerAddress1766271138000 implements MigrationInterface {
  name = 'SignInPerAddress1766271138000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_in_failures`);
    await q.query(`DROP TABLE sign_in_lockouts`);
    await q.query(`CREATE TABLE sign_in_lockouts (
      email_key text NOT NULL,
      client_address text NOT NULL,
      locked_until timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (email_key, client_address)
    )`);
    await q.query(`CREATE INDEX sign_in_lockouts_updated_idx ON sign_in_lockouts (updated_at)`);
    await q.query(`CREATE TABLE sign_in_failures (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      email_key text NOT NULL,
      client_address text NOT NULL,
      failed_at timestamptz NOT NULL
    )`);
    // the per-email count (all addresses) and the pair's count both read this index
    await q.query(`CREATE INDEX sign_in_failures_email_idx ON sign_in_failures (email_key, failed_at)`);
    await q.query(`CREATE INDEX sign_in_failures_failed_idx ON sign_in_failures (failed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_in_failures`);
    await q.query(`DROP TABLE sign_in_lockouts`);
    await q.query(`CREATE TABLE sign_in_lockouts (email_key text PRIMARY KEY, locked_until timestamptz)`);
    await q.query(`CREATE TABLE sign_in_failures (
      email_key text NOT NULL REFERENCES sign_in_lockouts (email_key),
      failed_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX sign_in_failures_idx ON sign_in_failures (email_key, failed_at)`);
  }
}

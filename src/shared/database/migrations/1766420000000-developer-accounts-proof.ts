import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35 (developers' accounts as strong as owners'), module `developers`:
 * - `developer_signups`: a sign-up waiting for its email to be proven. One row per confirmation email
 *   sent (and per notice sent to an email that has an account already, without a token), so the
 *   sends per email and per client address within the hour are counted in the database. The link's
 *   token is stored only as its SHA-256; the password only as its argon2id hash.
 * - `developer_quota_events`: what a developer did that has an hourly quota (sandbox token generations).
 * - `developers.last_sign_in_at`: when the developer last signed in (the purge of developers gone 90 days).
 */
export class DeveloperAccountsProof1766420000000 implements MigrationInterface {
  name = 'DeveloperAccountsProof1766420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE developer_signups (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      client_address text NOT NULL,
      token_hash text UNIQUE,
      password_hash text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX developer_signups_email_idx ON developer_signups (lower(email), created_at)`);
    await q.query(`CREATE INDEX developer_signups_address_idx ON developer_signups (client_address, created_at)`);
    await q.query(`CREATE INDEX developer_signups_expiry_idx ON developer_signups (expires_at)`);
    await q.query(`CREATE TABLE developer_quota_events (
      developer_id uuid NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
      kind text NOT NULL,
      at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX developer_quota_events_idx ON developer_quota_events (developer_id, kind, at)`);
    await q.query(`CREATE INDEX developer_quota_events_at_idx ON developer_quota_events (at)`);
    await q.query(`ALTER TABLE developers ADD COLUMN last_sign_in_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX developers_last_sign_in_idx ON developers (last_sign_in_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE developers DROP COLUMN IF EXISTS last_sign_in_at`);
    await q.query(`DROP TABLE IF EXISTS developer_quota_events`);
    await q.query(`DROP TABLE IF EXISTS developer_signups`);
  }
}

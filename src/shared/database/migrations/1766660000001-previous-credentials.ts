import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §21, modules `sandbox` and `consent`: **New sandbox token** and **New client secret** let the
 * previous one keep working for 1 hour or 24 hours — the project's previous generation
 * (`previous_generation_id`, `previous_generation_until`) and the client's previous secret's hash
 * (`previous_secret_hash`, `previous_secret_until`).
 */
export class PreviousCredentials1766660000001 implements MigrationInterface {
  name = 'PreviousCredentials1766660000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sandbox_projects ADD COLUMN IF NOT EXISTS previous_generation_id uuid, ADD COLUMN IF NOT EXISTS previous_generation_until timestamptz`,
    );
    await q.query(`ALTER TABLE oauth_clients ADD COLUMN IF NOT EXISTS previous_secret_hash text, ADD COLUMN IF NOT EXISTS previous_secret_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN IF EXISTS previous_secret_until, DROP COLUMN IF EXISTS previous_secret_hash`);
    await q.query(`ALTER TABLE sandbox_projects DROP COLUMN IF EXISTS previous_generation_until, DROP COLUMN IF EXISTS previous_generation_id`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §15 (version 5), the demo company: each developer has a production organization marked
 * `demo` whose only owner is the developer. The owner is a `users` row that stands for the developer
 * (`developer_id`): it holds no password or TOTP secret of its own — sign-in reads the developer's, so
 * the email, password and authenticator are the developer's and one code is used once across both.
 * `developers.demo_organization_id` says which organization is the developer's demo company.
 */
export class DemoCompany1766500000000 implements MigrationInterface {
  name = 'DemoCompany1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN demo boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE users ADD COLUMN developer_id uuid UNIQUE`);
    await q.query(`ALTER TABLE users ALTER COLUMN totp_secret DROP NOT NULL`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_credentials_check CHECK (developer_id IS NOT NULL OR totp_secret IS NOT NULL)`);
    await q.query(`ALTER TABLE developers ADD COLUMN demo_organization_id uuid UNIQUE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE developers DROP COLUMN demo_organization_id`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_credentials_check`);
    await q.query(`DELETE FROM users WHERE totp_secret IS NULL`);
    await q.query(`ALTER TABLE users ALTER COLUMN totp_secret SET NOT NULL`);
    await q.query(`ALTER TABLE users DROP COLUMN developer_id`);
    await q.query(`ALTER TABLE organizations DROP COLUMN demo`);
  }
}

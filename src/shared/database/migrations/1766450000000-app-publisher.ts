import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §18 "Who is asking": an app's publisher as its developer states it on the app page of §15
 * (**Publisher name**, **Website**, **Privacy policy**, the two addresses https only), shown on the
 * consent form. Module `apps` (table `apps`). Nullable: apps made before, or by the operator, have none.
 */
export class AppPublisher1766450000000 implements MigrationInterface {
  name = 'AppPublisher1766450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps
      ADD COLUMN publisher_name text CHECK (char_length(publisher_name) BETWEEN 1 AND 200),
      ADD COLUMN website_url text CHECK (website_url LIKE 'https://%' AND char_length(website_url) <= 2000),
      ADD COLUMN privacy_policy_url text CHECK (privacy_policy_url LIKE 'https://%' AND char_length(privacy_policy_url) <= 2000)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps DROP COLUMN publisher_name, DROP COLUMN website_url, DROP COLUMN privacy_policy_url`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §21 "Who is asking, approved": the publisher an owner sees is the one in the app's APPROVED
 * revision. Module `apps` (tables `apps`, `app_revisions`). `apps` keeps the developer's draft (now with
 * an optional CVR number, 8 digits); a revision copies the draft when it is made, and the consent page
 * reads the approved revision's copy. `publisher_verified_at`: when the operator verified that copy
 * (`POST /console/v1/apps/{app}/publisher-verification`); an approval of a revision with the same
 * publisher keeps it. Existing revisions take the draft as it is now (what owners were shown until now).
 */
export class PublisherApproved1766670000000 implements MigrationInterface {
  name = 'PublisherApproved1766670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps ADD COLUMN cvr text CHECK (cvr ~ '^[0-9]{8}$')`);
    await q.query(`ALTER TABLE app_revisions
      ADD COLUMN publisher_name text CHECK (char_length(publisher_name) BETWEEN 1 AND 200),
      ADD COLUMN website_url text CHECK (website_url LIKE 'https://%' AND char_length(website_url) <= 2000),
      ADD COLUMN privacy_policy_url text CHECK (privacy_policy_url LIKE 'https://%' AND char_length(privacy_policy_url) <= 2000),
      ADD COLUMN cvr text CHECK (cvr ~ '^[0-9]{8}$'),
      ADD COLUMN publisher_verified_at timestamptz`);
    await q.query(`UPDATE app_revisions r SET publisher_name = a.publisher_name, website_url = a.website_url, privacy_policy_url = a.privacy_policy_url
      FROM apps a WHERE a.id = r.app_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE app_revisions DROP COLUMN publisher_name, DROP COLUMN website_url, DROP COLUMN privacy_policy_url, DROP COLUMN cvr, DROP COLUMN publisher_verified_at`,
    );
    await q.query(`ALTER TABLE apps DROP COLUMN cvr`);
  }
}

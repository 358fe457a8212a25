import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §21, module `webhooks`: a second rotation within 24 h keeps the secret the endpoint had before
 * the first one signing until 24 h after that first rotation — `older_secret` (sealed, as `secret` and
 * `previous_secret`) and `older_secret_until`. Deliveries carry up to three signatures, newest first.
 */
export class WebhookOlderSecret1766660000000 implements MigrationInterface {
  name = 'WebhookOlderSecret1766660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS older_secret text, ADD COLUMN IF NOT EXISTS older_secret_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS older_secret_until, DROP COLUMN IF EXISTS older_secret`);
  }
}

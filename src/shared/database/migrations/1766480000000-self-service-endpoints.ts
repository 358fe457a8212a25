import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35: which webhook endpoints a developer registered through the developer console (self-service).
 * With developer sign-up open, private networks are allowed to the operator's endpoints only, so the
 * dispatcher and the reads tell the two apart. Endpoints of developers' apps made so far are marked.
 */
export class SelfServiceEndpoints1766480000000 implements MigrationInterface {
  name = 'SelfServiceEndpoints1766480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN self_service boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE webhook_endpoints e SET self_service = true
                    WHERE EXISTS (SELECT 1 FROM developer_apps d WHERE d.app_id = e.app_id OR d.sandbox_app_id = e.app_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN self_service`);
  }
}

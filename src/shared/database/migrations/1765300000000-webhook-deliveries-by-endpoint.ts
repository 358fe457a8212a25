import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair claiming (CONTRACT §9: a bad endpoint delays only itself): the dispatcher takes the oldest due
 * deliveries of each endpoint separately, which this index serves.
 */
export class WebhookDeliveriesByEndpoint1765300000000 implements MigrationInterface {
  name = 'WebhookDeliveriesByEndpoint1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
      WHERE delivered_at IS NULL AND failed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_endpoint_due_idx`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §9, keeping pace and lifecycle (docs/adr/0009-webhook-dispatch-keeps-pace.md):
 * - an endpoint remembers since when its attempts have failed without a 2xx (`failing_since`, the
 *   first failed attempt after its last success) and when it was disabled (`disabled_at`);
 * - the leases held per endpoint are counted on a small index (at most WEBHOOK_ENDPOINT_CONCURRENCY
 *   rows per endpoint, plus leases of dead dispatchers until they are claimed again), not by reading
 *   every due delivery of the endpoint;
 * - the retention purge finds dispatched events by age on an index the write path never touches
 *   (an event enters it when the dispatcher marks it dispatched).
 */
export class WebhookPaceLifecycle1765423700000 implements MigrationInterface {
  name = 'WebhookPaceLifecycle1765423700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz, ADD COLUMN disabled_at timestamptz`);
    await q.query(`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id)
      WHERE locked_until IS NOT NULL AND delivered_at IS NULL AND failed_at IS NULL`);
    await q.query(`CREATE INDEX webhook_outbox_dispatched_idx ON webhook_outbox (created_at) WHERE dispatched_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_outbox_dispatched_idx`);
    await q.query(`DROP INDEX webhook_deliveries_leased_idx`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN disabled_at, DROP COLUMN failing_since`);
  }
}

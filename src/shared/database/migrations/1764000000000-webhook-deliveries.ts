import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints per app and environment, deliveries per (event, endpoint), and every attempt (CONTRACT §9). */
export class WebhookDeliveries1764000000000 implements MigrationInterface {
  name = 'WebhookDeliveries1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      app_id uuid NOT NULL REFERENCES apps (id),
      environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
      url text NOT NULL,
      secret text NOT NULL,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX webhook_endpoints_app_idx ON webhook_endpoints (app_id, environment) WHERE active`);
    await q.query(`CREATE TABLE webhook_deliveries (
      organization_id uuid NOT NULL,
      id uuid NOT NULL,
      event_id uuid NOT NULL,
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      locked_until timestamptz,
      delivered_at timestamptz,
      failed_at timestamptz,
      last_status integer,
      last_error text,
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, event_id, endpoint_id),
      FOREIGN KEY (organization_id, event_id) REFERENCES webhook_outbox (organization_id, id)
    )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
      WHERE delivered_at IS NULL AND failed_at IS NULL`);
    await q.query(`CREATE TABLE webhook_attempts (
      organization_id uuid NOT NULL,
      delivery_id uuid NOT NULL,
      attempt integer NOT NULL,
      attempted_at timestamptz NOT NULL,
      status integer,
      error text,
      duration_ms integer NOT NULL,
      PRIMARY KEY (organization_id, delivery_id, attempt),
      FOREIGN KEY (organization_id, delivery_id) REFERENCES webhook_deliveries (organization_id, id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}

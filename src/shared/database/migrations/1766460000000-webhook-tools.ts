import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §9 "Signing secrets and recovery", §15 "Webhook tools":
 * - Rotate secret: an endpoint keeps its previous secret (sealed, as the secret) and until when it still
 *   signs (`previous_secret_until`, 24 h after the rotation); the claim signs with both until then.
 * - Recover: an event is delivered to an endpoint again as a NEW delivery (its own attempts, status and
 *   schedule), so a delivery is now one per event, endpoint and `round` (0 for the fan-out, 1, 2, … for
 *   each recovery of it), no longer one per event and endpoint.
 * - Test: a `webhook.test` event belongs to no organization (the nil uuid: never in any feed, sent to one
 *   endpoint only), so the outbox's organization is no longer a foreign key; the receipts' events still
 *   carry their organization, written in the write's own transaction.
 * - Developers' apps (CONTRACT §10: "under the app's own id"): a developer's sandbox project used an app of
 *   its own, named "… (sandbox app)", so its endpoints, events and tokens sat under an id the operator never
 *   saw. The sandbox project now uses the developer's app itself; existing projects are moved to it here
 *   (every `app_id` column that named the hidden app), and the hidden apps go.
 */
export class WebhookTools1766460000000 implements MigrationInterface {
  name = 'WebhookTools1766460000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text, ADD COLUMN previous_secret_until timestamptz`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN round integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_organization_id_event_id_endpoint_id_key`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_endpoint_round_key
      UNIQUE (organization_id, event_id, endpoint_id, round)`);
    await q.query(`ALTER TABLE webhook_outbox DROP CONSTRAINT webhook_outbox_organization_id_fkey`);

    const tables: Array<{ table_name: string }> = await q.query(
      `SELECT c.table_name::text AS table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = current_schema() AND c.column_name = 'app_id' AND c.table_name <> 'developer_apps'
        ORDER BY 1`,
    );
    for (const { table_name } of tables) {
      await q.query(`UPDATE "${table_name}" x SET app_id = d.app_id FROM developer_apps d
        WHERE x.app_id = d.sandbox_app_id AND d.app_id IS NOT NULL AND d.sandbox_app_id <> d.app_id`);
    }
    await q.query(`CREATE TEMPORARY TABLE hidden_sandbox_apps ON COMMIT DROP AS
      SELECT sandbox_app_id AS id FROM developer_apps WHERE app_id IS NOT NULL AND sandbox_app_id IS NOT NULL AND sandbox_app_id <> app_id`);
    await q.query(`UPDATE developer_apps SET sandbox_app_id = app_id WHERE app_id IS NOT NULL AND sandbox_app_id IS DISTINCT FROM app_id`);
    await q.query(`DELETE FROM apps WHERE id IN (SELECT id FROM hidden_sandbox_apps)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // the moved sandbox projects stay under their developer's app (the hidden apps are gone)
    await q.query(`DELETE FROM webhook_attempts a USING webhook_deliveries d
      WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id AND d.round > 0`);
    await q.query(`DELETE FROM webhook_deliveries WHERE round > 0`);
    await q.query(`DELETE FROM webhook_attempts a USING webhook_deliveries d, webhook_outbox o
      WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id
        AND d.organization_id = o.organization_id AND d.event_id = o.id AND o.event_type = 'webhook.test'`);
    await q.query(`DELETE FROM webhook_deliveries d USING webhook_outbox o
      WHERE d.organization_id = o.organization_id AND d.event_id = o.id AND o.event_type = 'webhook.test'`);
    await q.query(`DELETE FROM webhook_outbox WHERE event_type = 'webhook.test'`);
    await q.query(`ALTER TABLE webhook_outbox ADD CONSTRAINT webhook_outbox_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_endpoint_round_key`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_organization_id_event_id_endpoint_id_key
      UNIQUE (organization_id, event_id, endpoint_id)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN round`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN previous_secret_until, DROP COLUMN previous_secret`);
  }
}

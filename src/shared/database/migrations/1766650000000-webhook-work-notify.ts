import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The channel on which the database tells every dispatcher that webhook work became due (issue 47, an idle
 * instance costs nothing): the dispatchers LISTEN on it instead of polling (webhook-dispatcher.ts).
 */
export const WEBHOOK_WORK_CHANNEL = 'webhook_work';

/**
 * Module `webhooks`: a NOTIFY on WEBHOOK_WORK_CHANNEL from the transaction that writes due webhook work, so it
 * reaches every listening instance when (and only when) that transaction commits, whichever statement wrote
 * it (the outbox row is composed into other modules' statements): a new outbox event; new deliveries (the
 * fan-out, a test event, a resend round); a delivery made due now (resend, an endpoint enabled again, a retry
 * due at once); an endpoint enabled again. A retry due later notifies nobody: the dispatcher that recorded it
 * sets a timer to it. Within a transaction PostgreSQL sends identical notifications once; a statement that
 * inserted nothing notifies nobody.
 */
export class WebhookWorkNotify1766650000000 implements MigrationInterface {
  name = 'WebhookWorkNotify1766650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION webhook_work_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${WEBHOOK_WORK_CHANNEL}', '');
        RETURN NULL;
      END $$`);
    // a statement that inserted no row (the fan-out's when nothing waits) must not notify: each dispatcher
    // would wake the others for ever
    await q.query(`CREATE OR REPLACE FUNCTION webhook_work_notify_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM inserted) THEN
          PERFORM pg_notify('${WEBHOOK_WORK_CHANNEL}', '');
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER webhook_outbox_work AFTER INSERT ON webhook_outbox
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_work_notify_inserted()`);
    await q.query(`CREATE TRIGGER webhook_deliveries_work_new AFTER INSERT ON webhook_deliveries
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_work_notify_inserted()`);
    await q.query(`CREATE TRIGGER webhook_deliveries_work_due AFTER UPDATE OF next_attempt_at ON webhook_deliveries
      FOR EACH ROW WHEN (NEW.delivered_at IS NULL AND NEW.failed_at IS NULL AND NEW.next_attempt_at <= now()
                         AND NEW.next_attempt_at IS DISTINCT FROM OLD.next_attempt_at)
      EXECUTE FUNCTION webhook_work_notify()`);
    await q.query(`CREATE TRIGGER webhook_endpoints_work_enabled AFTER UPDATE OF disabled_at ON webhook_endpoints
      FOR EACH ROW WHEN (OLD.disabled_at IS NOT NULL AND NEW.disabled_at IS NULL)
      EXECUTE FUNCTION webhook_work_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS webhook_endpoints_work_enabled ON webhook_endpoints`);
    await q.query(`DROP TRIGGER IF EXISTS webhook_deliveries_work_due ON webhook_deliveries`);
    await q.query(`DROP TRIGGER IF EXISTS webhook_deliveries_work_new ON webhook_deliveries`);
    await q.query(`DROP TRIGGER IF EXISTS webhook_outbox_work ON webhook_outbox`);
    await q.query(`DROP FUNCTION IF EXISTS webhook_work_notify_inserted()`);
    await q.query(`DROP FUNCTION IF EXISTS webhook_work_notify()`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Module `webhooks`: the outbox's NOTIFY (1766650000000) no longer fires for `operation.completed`, the event of
 * every partner write. A NOTIFY makes the writing transaction's commit hold PostgreSQL's notification-queue lock to
 * its end, so writes that notify commit one WAL flush at a time instead of in groups (bench/RESULTS.md,
 * "2026-11-29: why the idle merge cost the create ratio"). Those rows wake their own process's dispatcher once
 * committed (OutboxSignal); OtherInstancesNotice tells the other instances with a NOTIFY of its own, outside the write. Other
 * events (grant and test events: few) still notify from their transaction, now by a row trigger whose WHEN
 * is evaluated without calling a function (no transition table, no query per statement).
 */
export class OutboxNotifyNotForPartnerWrites1766680000000 implements MigrationInterface {
  name = 'OutboxNotifyNotForPartnerWrites1766680000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS webhook_outbox_work ON webhook_outbox`);
    await q.query(`CREATE TRIGGER webhook_outbox_work AFTER INSERT ON webhook_outbox
      FOR EACH ROW WHEN (NEW.event_type <> 'operation.completed') EXECUTE FUNCTION webhook_work_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS webhook_outbox_work ON webhook_outbox`);
    await q.query(`CREATE TRIGGER webhook_outbox_work AFTER INSERT ON webhook_outbox
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_work_notify_inserted()`);
  }
}

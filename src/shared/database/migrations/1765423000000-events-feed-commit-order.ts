import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events feed's order (CONTRACT §14, docs/adr/0006-events-feed-commit-order.md): each outbox row
 * records the id of the transaction that wrote it (`pg_current_xact_id()`, xid8, a column default, so the
 * writes' statements are unchanged), and the feed lists an app's events by (commit_xid, id) up to the
 * oldest transaction still in progress.
 *
 * Rows written before this migration get 0 (a constant default adds the column without rewriting the
 * table); they are all committed, so they come first, ordered by id. Only then does the default become
 * the writer's transaction id.
 */
export class EventsFeedCommitOrder1765423000000 implements MigrationInterface {
  name = 'EventsFeedCommitOrder1765423000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_outbox ADD COLUMN commit_xid xid8 NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE webhook_outbox ALTER COLUMN commit_xid SET DEFAULT pg_current_xact_id()`);
    await q.query(`CREATE INDEX webhook_outbox_feed_idx ON webhook_outbox (organization_id, app_id, environment, commit_xid, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_outbox_feed_idx`);
    await q.query(`ALTER TABLE webhook_outbox DROP COLUMN commit_xid`);
  }
}

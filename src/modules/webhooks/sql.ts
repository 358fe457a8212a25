import type { RowInsert } from '../../shared/domain/row-insert';
import { inProcessSignal } from '../../shared/domain/in-process-signal';
import type { PurgeParts } from '../../shared/database/purge-parts';
import { join, raw, sql, type SqlExpr, type SqlFragment } from '../../shared/database/sql-template';

/**
 * SQL parts of the webhooks module's tables (webhook_outbox, webhook_endpoints, webhook_deliveries,
 * webhook_attempts), for statements that other modules compose (one round trip): the owner writes
 * every word about its tables, the composer only combines the parts. Imports nothing but src/shared
 * (docs/architecture.md).
 */
const OUTBOX_COLUMNS = [
  ['organization_id', 'uuid'],
  ['id', 'uuid'],
  ['environment', 'text'],
  ['app_id', 'uuid'],
  ['event_type', 'text'],
  ['body', 'text'],
  ['created_at', 'timestamptz'],
] as const;

/** An event for the outbox: fanned out to the app's endpoints of its environment by the dispatcher. */
export interface OutboxEvent {
  organizationId: string;
  id: string;
  environment: string;
  appId: string;
  eventType: string;
  /** the exact bytes every delivery attempt sends */
  body: string;
  createdAt: unknown;
}

/**
 * In this process: the outbox rows of partner writes committed here (`outboxRow`'s `committed`), told to this
 * process's dispatchers. Those rows do not NOTIFY from the write's own transaction: a NOTIFY makes a commit hold
 * PostgreSQL's notification-queue lock to its end, so writes that notify commit one WAL flush at a time instead of
 * in groups (bench/RESULTS.md, "2026-11-29: why the idle merge cost the create ratio"). The dispatcher that is
 * told fans the event out at once; OtherInstancesNotice tells the other instances with one NOTIFY of its own
 * per poll interval.
 */
export const OutboxSignal = inProcessSignal();

export const WebhooksSql = {
  /**
   * The event's outbox row, for a one-statement write (OneStatementWrite). Its commit wakes this process's
   * dispatcher (OutboxSignal) instead of a NOTIFY from the write's transaction: the trigger of migration
   * 1766680000000 leaves `operation.completed`, the only event written this way, out.
   */
  outboxRow: (e: OutboxEvent): RowInsert => ({
    table: 'webhook_outbox',
    columns: OUTBOX_COLUMNS,
    values: [e.organizationId, e.id, e.environment, e.appId, e.eventType, e.body, e.createdAt],
    committed: OutboxSignal.tell,
  }),
  /** An INSERT of the event's outbox row from expressions of the composing statement (bound values, literals). */
  insertOutboxEvent: (e: { [K in keyof OutboxEvent]: SqlExpr }): SqlFragment =>
    sql`INSERT INTO webhook_outbox (${raw(OUTBOX_COLUMNS.map(([c]) => c).join(', '))})
       VALUES (${join([e.organizationId, e.id, e.environment, e.appId, e.eventType, e.body, e.createdAt])})`,
  /** One row when the endpoint ($1, a lower-case uuid) exists and is not deleted (the console's path check). */
  endpointExists: `SELECT 1 FROM webhook_endpoints WHERE id = $1 AND active`,
  /**
   * Deliveries still to be attempted or retried, as column pending (metrics): only the pending rows, read
   * through the pending partial index (webhook_deliveries_due_idx), so its cost follows the backlog, never
   * the history. Delivered and failed deliveries are counted by the dispatcher as it records them.
   */
  pendingDeliveries: `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL`,
  /** The age in seconds of the oldest event not yet delivered or given up, as column age (metrics). */
  queueAge: `SELECT EXTRACT(EPOCH FROM (now() - min(created_at)))::float8 AS age FROM (
            SELECT min(created_at) AS created_at FROM webhook_outbox WHERE dispatched_at IS NULL
            UNION ALL
            SELECT min(o.created_at) FROM webhook_deliveries d
              JOIN webhook_outbox o ON o.organization_id = d.organization_id AND o.id = d.event_id
             WHERE d.delivered_at IS NULL AND d.failed_at IS NULL) t`,
} as const;

/** Issue 35: the webhooks' rows of purged organizations (their events) and apps (their endpoints, and deliveries to them). */
export const WebhooksPurge: PurgeParts = {
  organizations: [
    `DELETE FROM webhook_attempts WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_deliveries WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_outbox WHERE organization_id = ANY($1::uuid[])`,
  ],
  apps: [
    `DELETE FROM webhook_attempts a USING webhook_deliveries d, webhook_endpoints e
      WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id AND d.endpoint_id = e.id AND e.app_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_deliveries d USING webhook_endpoints e WHERE d.endpoint_id = e.id AND e.app_id = ANY($1::uuid[])`,
    // the apps' own events outside their organizations (a webhook.test event belongs to none)
    `DELETE FROM webhook_attempts a USING webhook_deliveries d, webhook_outbox o
      WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id
        AND o.organization_id = d.organization_id AND o.id = d.event_id AND o.app_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_deliveries d USING webhook_outbox o
      WHERE o.organization_id = d.organization_id AND o.id = d.event_id AND o.app_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_outbox WHERE app_id = ANY($1::uuid[])`,
    `DELETE FROM webhook_endpoints WHERE app_id = ANY($1::uuid[])`,
  ],
};

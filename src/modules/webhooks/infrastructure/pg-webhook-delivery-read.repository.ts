import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import type { Environment } from '../../../shared/domain/caller-context';
import { HostResolver } from '../../../shared/domain/host-resolver';
import { attemptFailure } from '../domain/attempt-failure';
import { answerShown } from '../domain/endpoint-address';
import { type DeliveryDetailView, WebhookDeliveryReadRepository, type WebhookDeliveryView } from '../domain/webhook-delivery-read.repository';

interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  operation_id: string | null;
  attempts: number;
  delivered: boolean;
  failed: boolean;
  last_status: number | null;
  last_address: string | null;
  url: string;
}

interface AttemptRow {
  attempt: number;
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
  address: string | null;
}

interface DetailRow extends DeliveryRow {
  environment: Environment;
  event_type: string;
  next_attempt_at: Date | null;
  endpoint_disabled: boolean;
  attempt_log: AttemptRow[] | string;
}

const delivery = (r: DeliveryRow): WebhookDeliveryView => ({
  event_id: r.event_id,
  endpoint_id: r.endpoint_id,
  operation_id: r.operation_id ?? null,
  attempts: Number(r.attempts),
  status: r.delivered ? 'delivered' : r.failed ? 'failed' : 'pending',
  last_status_code: r.last_status === null ? null : Number(r.last_status),
});

const DELIVERY_COLUMNS = `d.event_id::text AS event_id, d.endpoint_id::text AS endpoint_id,
  (o.body::jsonb -> 'data' ->> 'operation_id') AS operation_id, d.attempts,
  d.delivered_at IS NOT NULL AS delivered, d.failed_at IS NOT NULL AS failed, d.last_status, d.last_address, e.url`;

/** How long a read waits for DNS to judge an answer recorded without its address (then it is not shown). */
const RESOLVE_TIMEOUT_MS = 2_000;

/** A delivery with its attempts (one sub-select on the attempts' primary key) and its endpoint's state. */
const DETAILS_SQL = `SELECT ${DELIVERY_COLUMNS}, o.environment, o.event_type,
       CASE WHEN d.delivered_at IS NULL AND d.failed_at IS NULL THEN d.next_attempt_at END AS next_attempt_at,
       e.disabled_at IS NOT NULL AS endpoint_disabled,
       COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', a.attempted_at, 'status', a.status, 'error', a.error,
                                                   'duration_ms', a.duration_ms, 'address', a.address) ORDER BY a.attempt)
                   FROM webhook_attempts a WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id), '[]'::json) AS attempt_log
  FROM webhook_outbox o
  JOIN webhook_deliveries d ON d.organization_id = o.organization_id AND d.event_id = o.id
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
 WHERE o.app_id = ANY($1::uuid[])
 ORDER BY o.created_at DESC, o.id, d.round DESC, d.endpoint_id
 LIMIT $2`;

@Injectable()
export class PgWebhookDeliveryReadRepository extends WebhookDeliveryReadRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: HostResolver,
  ) {
    super();
  }

  /**
   * Whether an answer of `url` from `address` may be shown now (issue 35, answerShown): no read tells
   * what an address outside WEBHOOK_ALLOWED_NETWORKS' reach answered. DNS is asked only for answers
   * recorded before their address was, once per host and read (one judge per read).
   */
  private judge(): (url: string, address: string | null) => Promise<boolean> {
    const resolved = new Map<string, Promise<Array<{ address: string }>>>();
    const resolve = (host: string) => {
      let answer = resolved.get(host);
      if (!answer) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS)));
        answer = Promise.race([this.resolver.resolve(host), timeout]).finally(() => clearTimeout(timer));
        resolved.set(host, answer);
      }
      return answer;
    };
    return (url, address) => answerShown(url, address, this.config.webhookAllowedNetworks, resolve);
  }

  /** The views, each status code shown only while the address that answered would be allowed now. */
  private async views(rows: DeliveryRow[], shown = this.judge()): Promise<WebhookDeliveryView[]> {
    return Promise.all(
      rows.map(async (r) => {
        const view = delivery(r);
        if (view.last_status_code === null) return view;
        return (await shown(r.url, r.last_address)) ? view : { ...view, last_status_code: null };
      }),
    );
  }

  async deliveries(appId: string, limit: number): Promise<WebhookDeliveryView[]> {
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_outbox o
         JOIN webhook_deliveries d ON d.organization_id = o.organization_id AND d.event_id = o.id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE o.app_id = $1
        ORDER BY o.created_at DESC, o.id, d.round DESC, d.endpoint_id
        LIMIT $2`,
      [appId, limit],
    );
    return this.views(rows);
  }

  async details(appIds: string[], limit: number): Promise<DeliveryDetailView[]> {
    if (appIds.length === 0) return [];
    const rows: DetailRow[] = await this.dataSource.query(DETAILS_SQL, [[...new Set(appIds)], limit]);
    const shown = this.judge();
    const views = await this.views(rows, shown);
    return Promise.all(
      rows.map(async (r, i) => {
        const log = typeof r.attempt_log === 'string' ? (JSON.parse(r.attempt_log) as AttemptRow[]) : r.attempt_log;
        const attemptLog = await Promise.all(
          log.map(async (a) => {
            const status = a.status === null ? null : Number(a.status);
            return {
              attempt: Number(a.attempt),
              at: new Date(a.at),
              // the same rule as the last status code: a code only from an address allowed now
              statusCode: status !== null && (await shown(r.url, a.address)) ? status : null,
              failure: attemptFailure({ status, error: a.error }),
              durationMs: Number(a.duration_ms),
            };
          }),
        );
        return {
          ...views[i],
          environment: r.environment,
          eventType: r.event_type,
          nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at),
          endpointDisabled: r.endpoint_disabled,
          attemptLog,
        };
      }),
    );
  }

  async resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null> {
    // a lease in force is left alone: its attempt finishes and is recorded, then this one is due
    const rows: DeliveryRow[] = await this.dataSource.query(
      `WITH latest AS (
         SELECT organization_id, id FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2
          ORDER BY round DESC LIMIT 1),
       changed AS (
         UPDATE webhook_deliveries d SET next_attempt_at = now(), delivered_at = NULL, failed_at = NULL
           FROM latest l WHERE d.organization_id = l.organization_id AND d.id = l.id
          RETURNING d.organization_id, d.event_id, d.endpoint_id, d.attempts, d.delivered_at, d.failed_at, d.last_status, d.last_address)
       SELECT ${DELIVERY_COLUMNS}
         FROM changed d JOIN webhook_outbox o ON o.organization_id = d.organization_id AND o.id = d.event_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id`,
      [eventId, endpointId],
    );
    return rows[0] ? (await this.views([rows[0]]))[0] : null;
  }
}

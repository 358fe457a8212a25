import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { HostResolver } from '../../../shared/domain/host-resolver';
import { answerShown } from '../domain/endpoint-address';
import { WebhookDeliveryReadRepository, type WebhookDeliveryView } from '../domain/webhook-delivery-read.repository';

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


const delivery = (r: DeliveryRow): WebhookDeliveryView => ({
  event_id: r.event_id,
  endpoint_id: r.endpoint_id,
  operation_id: r.operation_id ?? '',
  attempts: Number(r.attempts),
  status: r.delivered ? 'delivered' : r.failed ? 'failed' : 'pending',
  last_status_code: r.last_status === null ? null : Number(r.last_status),
});

const DELIVERY_COLUMNS = `d.event_id::text AS event_id, d.endpoint_id::text AS endpoint_id,
  (o.body::jsonb -> 'data' ->> 'operation_id') AS operation_id, d.attempts,
  d.delivered_at IS NOT NULL AS delivered, d.failed_at IS NOT NULL AS failed, d.last_status, d.last_address, e.url`;

/** How long a read waits for DNS to judge an answer recorded without its address (then it is not shown). */
const RESOLVE_TIMEOUT_MS = 2_000;

@Injectable()
export class TypeOrmWebhookDeliveryReadRepository extends WebhookDeliveryReadRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: HostResolver,
  ) {
    super();
  }

  /**
   * The views, each status code shown only while the address that answered would be allowed now (issue 35,
   * answerShown): with private networks refused, no read tells what a private address answered. DNS is
   * asked only for answers recorded before their address was, once per host and read.
   */
  private async views(rows: DeliveryRow[]): Promise<WebhookDeliveryView[]> {
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
    return Promise.all(
      rows.map(async (r) => {
        const view = delivery(r);
        if (view.last_status_code === null) return view;
        const shown = await answerShown(r.url, r.last_address, this.config.webhookAllowPrivateNetworks, resolve);
        return shown ? view : { ...view, last_status_code: null };
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
        ORDER BY o.created_at DESC, o.id, d.endpoint_id
        LIMIT $2`,
      [appId, limit],
    );
    return this.views(rows);
  }

  async resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null> {
    // a lease in force is left alone: its attempt finishes and is recorded, then this one is due
    const rows: DeliveryRow[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE webhook_deliveries SET next_attempt_at = now(), delivered_at = NULL, failed_at = NULL
          WHERE event_id = $1 AND endpoint_id = $2
          RETURNING organization_id, event_id, endpoint_id, attempts, delivered_at, failed_at, last_status, last_address)
       SELECT ${DELIVERY_COLUMNS}
         FROM changed d JOIN webhook_outbox o ON o.organization_id = d.organization_id AND o.id = d.event_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id`,
      [eventId, endpointId],
    );
    return rows[0] ? (await this.views([rows[0]]))[0] : null;
  }
}

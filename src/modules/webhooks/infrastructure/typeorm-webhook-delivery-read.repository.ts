import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookDeliveryReadRepository, type WebhookDeliveryView } from '../domain/webhook-delivery-read.repository';

interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  operation_id: string | null;
  attempts: number;
  delivered: boolean;
  failed: boolean;
  last_status: number | null;
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
  d.delivered_at IS NOT NULL AS delivered, d.failed_at IS NOT NULL AS failed, d.last_status`;

@Injectable()
export class TypeOrmWebhookDeliveryReadRepository extends WebhookDeliveryReadRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async deliveries(appId: string, limit: number): Promise<WebhookDeliveryView[]> {
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_outbox o
         JOIN webhook_deliveries d ON d.organization_id = o.organization_id AND d.event_id = o.id
        WHERE o.app_id = $1
        ORDER BY o.created_at DESC, o.id, d.endpoint_id
        LIMIT $2`,
      [appId, limit],
    );
    return rows.map(delivery);
  }

  async resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null> {
    // a lease in force is left alone: its attempt finishes and is recorded, then this one is due
    const rows: DeliveryRow[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE webhook_deliveries SET next_attempt_at = now(), delivered_at = NULL, failed_at = NULL
          WHERE event_id = $1 AND endpoint_id = $2
          RETURNING organization_id, event_id, endpoint_id, attempts, delivered_at, failed_at, last_status)
       SELECT ${DELIVERY_COLUMNS}
         FROM changed d JOIN webhook_outbox o ON o.organization_id = d.organization_id AND o.id = d.event_id`,
      [eventId, endpointId],
    );
    return rows[0] ? delivery(rows[0]) : null;
  }
}

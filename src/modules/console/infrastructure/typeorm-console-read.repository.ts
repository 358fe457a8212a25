import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ConsoleReadRepository,
  type GrantView,
  type OrganizationView,
  type WebhookDeliveryView,
} from '../domain/console-read.repository';

interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  operation_id: string | null;
  attempts: number;
  delivered: boolean;
  failed: boolean;
  last_status: number | null;
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

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
  d.delivered_at IS NOT NULL AS delivered, d.failed_at IS NOT NULL AS failed, d.last_status`;

@Injectable()
export class TypeOrmConsoleReadRepository extends ConsoleReadRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async organization(organizationId: string): Promise<OrganizationView | null> {
    const [org]: Array<{ id: string; name: string }> = await this.dataSource.query(
      `SELECT id::text AS id, name FROM organizations WHERE id = $1`,
      [organizationId],
    );
    if (!org) return null;
    const accounts: Array<{ id: string; number: string; name: string; active: boolean }> = await this.dataSource.query(
      `SELECT id::text AS id, number, name, active FROM accounts WHERE organization_id = $1 ORDER BY number, id`,
      [organizationId],
    );
    const taxCodes: Array<{ id: string; code: string; rate_basis_points: number }> = await this.dataSource.query(
      `SELECT id::text AS id, code, rate_basis_points FROM tax_codes WHERE organization_id = $1 ORDER BY code, id`,
      [organizationId],
    );
    const owners: Array<{ user_id: string; email: string }> = await this.dataSource.query(
      `SELECT u.id::text AS user_id, u.email FROM organization_owners o JOIN users u ON u.id = o.user_id
        WHERE o.organization_id = $1 ORDER BY u.email, u.id`,
      [organizationId],
    );
    return {
      id: org.id,
      name: org.name,
      accounts: accounts.map((a) => ({ id: a.id, number: a.number, name: a.name, active: a.active })),
      tax_codes: taxCodes.map((t) => ({ id: t.id, code: t.code, rate_basis_points: Number(t.rate_basis_points) })),
      owners,
    };
  }

  async grants(organizationId: string): Promise<GrantView[]> {
    const rows: Array<{ id: string; app_id: string; scopes: string[]; account_ids: string[]; expires_at: Date | string; revoked: boolean }> =
      await this.dataSource.query(
        `SELECT g.id::text AS id, g.app_id::text AS app_id, g.scopes,
                ARRAY(SELECT ga.account_id::text FROM grant_accounts ga
                       WHERE ga.organization_id = g.organization_id AND ga.grant_id = g.id ORDER BY ga.account_id) AS account_ids,
                g.expires_at, (g.revoked_at IS NOT NULL OR g.superseded_at IS NOT NULL) AS revoked
           FROM grants g WHERE g.organization_id = $1 ORDER BY g.granted_at DESC, g.id`,
        [organizationId],
      );
    return rows.map((r) => ({
      id: r.id,
      app_id: r.app_id,
      scopes: [...r.scopes],
      account_ids: [...r.account_ids],
      expires_at: iso(r.expires_at),
      revoked: r.revoked,
    }));
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

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppsSql } from '../../apps/sql';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import { type ClaimedDelivery, WebhookRepository } from '../domain/webhook.repository';

@Injectable()
export class TypeOrmWebhookRepository extends WebhookRepository {
  /** Signing secrets are stored sealed (CONTRACT §8). */
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {
    super();
  }

  /** A secret that does not open under SECRETS_KEY signs nothing: the attempt fails as signing_failed. */
  private openSecret(sealed: string): string {
    try {
      return this.box.openAny(sealed, SECRET_CONTEXT.webhook);
    } catch {
      return '';
    }
  }

  async appExists(appId: string): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(AppsSql.appExists, [appId])).length > 0;
  }

  async insertEndpoint(m: EntityManager, e: { id: string; appId: string; environment: string; url: string; secret: string }): Promise<void> {
    await m.query(`INSERT INTO webhook_endpoints (id, app_id, environment, url, secret) VALUES ($1, $2, $3, $4, $5)`, [
      e.id, e.appId, e.environment, e.url, this.box.seal(e.secret, SECRET_CONTEXT.webhook),
    ]);
  }

  async fanOut(limit: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH events AS (
         SELECT organization_id, id, app_id, environment FROM webhook_outbox
          WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED),
       deliveries AS (
         INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at)
         SELECT ev.organization_id, gen_random_uuid(), ev.id, e.id, now()
           FROM events ev JOIN webhook_endpoints e ON e.app_id = ev.app_id AND e.environment = ev.environment AND e.active
         ON CONFLICT DO NOTHING)
       UPDATE webhook_outbox o SET dispatched_at = now() FROM events ev
        WHERE o.organization_id = ev.organization_id AND o.id = ev.id
       RETURNING 1`,
      [limit],
    );
    return rows.length;
  }

  async claimDue(limit: number, leaseMs: number, perEndpoint: number = limit): Promise<ClaimedDelivery[]> {
    const rows: Array<{ organization_id: string; id: string; event_id: string; attempts: number; body: string; url: string; secret: string }> =
      await this.dataSource.query(
        `WITH endpoints AS (
           -- every endpoint with work due, and how many of its deliveries are leased right now
           SELECT endpoint_id, count(*) FILTER (WHERE locked_until >= now())::int AS busy
             FROM webhook_deliveries
            WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
            GROUP BY endpoint_id),
         due AS (
           SELECT c.organization_id, c.id, c.next_attempt_at
             FROM endpoints e
             CROSS JOIN LATERAL (
               SELECT d.organization_id, d.id, d.next_attempt_at FROM webhook_deliveries d
                WHERE d.endpoint_id = e.endpoint_id AND d.delivered_at IS NULL AND d.failed_at IS NULL
                  AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
                ORDER BY d.next_attempt_at
                LIMIT GREATEST($3::int - e.busy, 0)
                FOR UPDATE SKIP LOCKED) c
            ORDER BY c.next_attempt_at
            LIMIT $1),
         claimed AS (
           UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1
             FROM due WHERE d.organization_id = due.organization_id AND d.id = due.id
           RETURNING d.organization_id, d.id, d.event_id, d.endpoint_id, d.attempts)
         SELECT c.organization_id, c.id, c.event_id, c.attempts, o.body, e.url, e.secret
           FROM claimed c
           JOIN webhook_outbox o ON o.organization_id = c.organization_id AND o.id = c.event_id
           JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
        [limit, leaseMs, perEndpoint],
      );
    return rows.map((r) => ({
      organizationId: r.organization_id, id: r.id, eventId: r.event_id, attempt: r.attempts, body: r.body, url: r.url, secret: this.openSecret(r.secret),
    }));
  }

  async renewLease(d: ClaimedDelivery, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => $3::double precision / 1000)
        WHERE organization_id = $1 AND id = $2 AND attempts = $4 AND delivered_at IS NULL AND failed_at IS NULL
          AND locked_until IS NOT NULL
       RETURNING 1`,
      [d.organizationId, d.id, leaseMs, d.attempt],
    );
    return rows.length > 0;
  }

  async recordAttempt(
    d: ClaimedDelivery,
    o: { ok: boolean; status?: number; error?: string; durationMs: number; attemptedAt: Date; retryInMs: number | null },
  ): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `INSERT INTO webhook_attempts (organization_id, delivery_id, attempt, attempted_at, status, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [d.organizationId, d.id, d.attempt, o.attemptedAt, o.status ?? null, o.error ?? null, o.durationMs],
      );
      await m.query(
        `UPDATE webhook_deliveries SET locked_until = NULL, last_status = $3, last_error = $4,
                delivered_at = CASE WHEN $5 THEN now() END,
                failed_at = CASE WHEN NOT $5 AND $6::bigint IS NULL THEN now() END,
                next_attempt_at = CASE WHEN NOT $5 AND $6::bigint IS NOT NULL THEN now() + make_interval(secs => $6::double precision / 1000) ELSE next_attempt_at END
          WHERE organization_id = $1 AND id = $2 AND attempts = $7`,
        // attempts = ours: a dispatcher whose lease ran out (and was claimed again) leaves the newer claim alone
        [d.organizationId, d.id, o.status ?? null, o.error ?? null, o.ok, o.retryInMs, d.attempt],
      );
    });
  }

  async endpointsOf(appIds: string[]): Promise<Array<{ id: string; appId: string; url: string; environment: string }>> {
    if (appIds.length === 0) return [];
    const rows: Array<{ id: string; app_id: string; url: string; environment: string }> = await this.dataSource.query(
      `SELECT id, app_id, url, environment FROM webhook_endpoints WHERE app_id = ANY($1::uuid[]) AND active ORDER BY created_at, id`,
      [appIds],
    );
    return rows.map((r) => ({ id: r.id, appId: r.app_id, url: r.url, environment: r.environment }));
  }

  async removeEndpoint(m: EntityManager, appId: string, endpointId: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `UPDATE webhook_endpoints SET active = false WHERE id = $1 AND app_id = $2 AND active RETURNING id`,
      [endpointId, appId],
    );
    if (rows.length === 0) return false;
    await m.query(
      `UPDATE webhook_deliveries SET failed_at = $2, last_error = 'endpoint deleted', locked_until = NULL
        WHERE endpoint_id = $1 AND delivered_at IS NULL AND failed_at IS NULL`,
      [endpointId, at],
    );
    return true;
  }
}

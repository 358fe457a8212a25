import { WEBHOOK_WORK_CHANNEL } from '../../../shared/database/migrations/1766650000000-webhook-work-notify';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { managerOf, Transactions } from '../../../shared/database/transactions';
import { AppsSql } from '../../auth/apps/sql';
import type { Environment } from '../../../shared/domain/caller-context';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import type { HostScope } from '../domain/endpoint-limits';
import { NO_ORGANIZATION, WEBHOOK_TEST_EVENT } from '../domain/webhook-events';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  DISABLE_AFTER_HOURS,
  type EndpointState,
  type FinishedDeliveries,
  WebhookRepository,
} from '../domain/webhook.repository';

@Injectable()
export class PgWebhookRepository extends WebhookRepository {
  /** Signing secrets are stored sealed (CONTRACT §8). */
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly transactions: Transactions,
  ) {
    super();
  }

  /**
   * A secret that does not open under SECRETS_KEY signs nothing: the attempt fails as signing_failed
   * (and the key version is logged at error, once a minute: SecretBox.openStored).
   */
  private openSecret(sealed: string): string {
    try {
      return this.box.openStored(sealed, SECRET_CONTEXT.webhook);
    } catch {
      return '';
    }
  }

  async appExists(appId: string): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(AppsSql.appExists, [appId])).length > 0;
  }

  async insertEndpoint(
    m: EntityManager,
    e: { id: string; appId: string; environment: string; url: string; host: string; secret: string },
    limits: { perAppEnvironment: number; hostScope?: HostScope },
  ): Promise<'inserted' | 'app_full' | 'host_full'> {
    // transaction-scoped locks, always in this order (scope, then app and environment): two registrations
    // that could pass the same count wait for each other, on every instance; no row of another table is locked
    const scope = limits.hostScope;
    if (scope) await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`webhook_endpoints host scope ${scope.key}`]);
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`webhook_endpoints app ${e.appId} ${e.environment}`]);
    const [counts]: Array<{ in_app: number; on_host: number }> = await m.query(
      `SELECT (SELECT count(*)::int FROM webhook_endpoints WHERE app_id = $1 AND environment = $2 AND active) AS in_app,
              (SELECT count(*)::int FROM webhook_endpoints WHERE app_id = ANY($3::uuid[]) AND host = $4 AND active) AS on_host`,
      [e.appId, e.environment, scope ? [...scope.appIds] : [], e.host],
    );
    if (Number(counts.in_app) >= limits.perAppEnvironment) return 'app_full';
    if (scope && Number(counts.on_host) >= scope.max) return 'host_full';
    // registered through the developer console (a developer's host scope): self-service (issue 35)
    await m.query(`INSERT INTO webhook_endpoints (id, app_id, environment, url, host, secret, self_service) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      e.id,
      e.appId,
      e.environment,
      e.url,
      e.host,
      this.box.seal(e.secret, SECRET_CONTEXT.webhook),
      limits.hostScope !== undefined,
    ]);
    return 'inserted';
  }

  async fanOut(limit: number): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `WITH events AS (
         SELECT organization_id, id, app_id, environment FROM webhook_outbox
          WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED),
       deliveries AS (
         INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at)
         SELECT ev.organization_id, gen_random_uuid(), ev.id, e.id, now()
           FROM events ev JOIN webhook_endpoints e ON e.app_id = ev.app_id AND e.environment = ev.environment AND e.active
         ON CONFLICT DO NOTHING),
       dispatched AS (
         UPDATE webhook_outbox o SET dispatched_at = now() FROM events ev
          WHERE o.organization_id = ev.organization_id AND o.id = ev.id
         RETURNING 1)
       SELECT count(*)::int AS n FROM dispatched`,
      [limit],
    );
    // a SELECT at the top: TypeORM answers an UPDATE's or DELETE's RETURNING rows as [rows, count]
    return Number(rows[0]?.n ?? 0);
  }

  async claimDue(limit: number, leaseMs: number, perEndpoint: number = limit, perApp: number = limit): Promise<ClaimedDelivery[]> {
    const rows: Array<{
      organization_id: string;
      id: string;
      event_id: string;
      endpoint_id: string;
      attempts: number;
      body: string;
      url: string;
      secret: string;
      previous_secret: string | null;
      older_secret: string | null;
    }> = await this.dataSource.query(CLAIM_DUE_SQL, [limit, leaseMs, perEndpoint, perApp]);
    return rows.map((r) => ({
      organizationId: r.organization_id,
      id: r.id,
      eventId: r.event_id,
      endpointId: r.endpoint_id,
      attempt: r.attempts,
      body: r.body,
      url: r.url,
      secret: this.openSecret(r.secret),
      previousSecrets: [r.previous_secret, r.older_secret]
        .filter((x): x is string => x !== null)
        .map((x) => this.openSecret(x))
        .filter((x) => x !== ''),
    }));
  }

  async nextDueInMs(): Promise<number | null> {
    const rows: Array<{ ms: number | null }> = await this.dataSource.query(NEXT_DUE_SQL, [NEXT_DUE_LOOK]);
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  async notifyWork(): Promise<void> {
    await this.dataSource.query(`SELECT pg_notify($1, '')`, [WEBHOOK_WORK_CHANNEL]);
  }

  async renewLease(d: ClaimedDelivery, leaseMs: number): Promise<boolean> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `WITH renewed AS (
         UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => $3::double precision / 1000)
          WHERE organization_id = $1 AND id = $2 AND attempts = $4 AND delivered_at IS NULL AND failed_at IS NULL
            AND locked_until IS NOT NULL
         RETURNING 1)
       SELECT count(*)::int AS n FROM renewed`,
      [d.organizationId, d.id, leaseMs, d.attempt],
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  async recordAttempts(attempts: ReadonlyArray<{ delivery: ClaimedDelivery; outcome: AttemptOutcome }>): Promise<FinishedDeliveries> {
    if (attempts.length === 0) return { delivered: 0, failed: 0 };
    const input = attempts.map(({ delivery: d, outcome: o }) => ({
      organization_id: d.organizationId,
      id: d.id,
      endpoint_id: d.endpointId ?? null,
      attempt: d.attempt,
      attempted_at: o.attemptedAt.toISOString(),
      status: o.status ?? null,
      error: o.error ?? null,
      duration_ms: Math.round(o.durationMs),
      ok: o.ok,
      retry_ms: o.retryInMs,
      address: o.address ?? null,
    }));
    const rows: Array<{ delivered: number; failed: number }> = await this.dataSource.query(RECORD_ATTEMPTS_SQL, [JSON.stringify(input), DISABLE_AFTER_HOURS]);
    return { delivered: Number(rows[0]?.delivered ?? 0), failed: Number(rows[0]?.failed ?? 0) };
  }

  async enableEndpoint(endpointId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH endpoint AS (
         UPDATE webhook_endpoints SET disabled_at = NULL, failing_since = NULL WHERE id = $1 AND active RETURNING id),
       due AS (
         UPDATE webhook_deliveries d SET next_attempt_at = now() FROM endpoint e
          WHERE d.endpoint_id = e.id AND d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_at > now())
       SELECT id FROM endpoint`,
      [endpointId],
    );
    return rows.length > 0;
  }

  async endpointsOf(appId: string): Promise<Array<{ id: string; url: string; environment: Environment; disabled: boolean }>> {
    return this.dataSource.query(
      `SELECT id::text AS id, url, environment, disabled_at IS NOT NULL AS disabled FROM webhook_endpoints
        WHERE app_id = $1 AND active ORDER BY created_at, id`,
      [appId],
    );
  }

  async purgeBefore(createdBefore: Date, limit: number): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(PURGE_SQL, [createdBefore, limit]);
    return Number(rows[0]?.n ?? 0);
  }

  async endpointsOfApps(appIds: string[]): Promise<Array<{ id: string; appId: string; url: string; environment: string; disabled: boolean }>> {
    if (appIds.length === 0) return [];
    const rows: Array<{ id: string; app_id: string; url: string; environment: string; disabled: boolean }> = await this.dataSource.query(
      `SELECT id, app_id, url, environment, disabled_at IS NOT NULL AS disabled FROM webhook_endpoints
        WHERE app_id = ANY($1::uuid[]) AND active ORDER BY created_at, id`,
      [appIds],
    );
    return rows.map((r) => ({ id: r.id, appId: r.app_id, url: r.url, environment: r.environment, disabled: r.disabled }));
  }

  async endpoint(endpointId: string): Promise<EndpointState | null> {
    const rows: Array<{ id: string; app_id: string; environment: Environment; disabled: boolean }> = await this.dataSource.query(
      `SELECT id::text AS id, app_id::text AS app_id, environment, disabled_at IS NOT NULL AS disabled FROM webhook_endpoints WHERE id = $1 AND active`,
      [endpointId],
    );
    const r = rows[0];
    return r ? { id: r.id, appId: r.app_id, environment: r.environment, disabled: r.disabled } : null;
  }

  async rotateSecret(
    endpointId: string,
    secret: string,
    overlapHours: number,
    quota: { max: number; windowHours: number },
  ): Promise<{ rotated: true } | { rotated: false; retryAfterSeconds: number } | null> {
    // the UPDATE's condition is evaluated again on the last committed row once its lock is held: the count
    // of rotations within the window holds on any number of instances
    const recent = (column: string) => `ARRAY(SELECT t FROM unnest(${column}) t WHERE t > now() - make_interval(hours => $4::int) ORDER BY t)`;
    const rows: Array<{ rotated: boolean; retry_after: string | number | null }> = await this.dataSource.query(
      `WITH rotated AS (
         -- CONTRACT §21: a rotation while the previous secret still signs keeps that one too, until its own end
         UPDATE webhook_endpoints
            SET older_secret = CASE WHEN previous_secret_until > now() THEN previous_secret END,
                older_secret_until = CASE WHEN previous_secret_until > now() THEN previous_secret_until END,
                previous_secret = secret, previous_secret_until = now() + make_interval(hours => $3::int), secret = $2,
                secret_rotations = ${recent('secret_rotations')} || now()
          WHERE id = $1 AND active AND cardinality(${recent('secret_rotations')}) < $5::int RETURNING id)
       SELECT EXISTS (SELECT 1 FROM rotated) AS rotated,
              -- a rotation that committed after this statement's snapshot may be the one that filled the window: then a whole window
              (SELECT coalesce(ceil(extract(epoch FROM (${recent('e.secret_rotations')})[1] + make_interval(hours => $4::int) - now())), $4::int * 3600)
                 FROM webhook_endpoints e WHERE e.id = $1 AND e.active) AS retry_after`,
      [endpointId, this.box.seal(secret, SECRET_CONTEXT.webhook), overlapHours, quota.windowHours, quota.max],
    );
    const [r] = rows;
    if (r.rotated) return { rotated: true };
    return r.retry_after === null ? null : { rotated: false, retryAfterSeconds: Number(r.retry_after) };
  }

  recover(endpointId: string, since: Date): Promise<{ events: number } | 'disabled' | null> {
    return this.transactions.run(async (tx) => {
      const m = managerOf(tx);
      // the lock first, the events in a statement of their own: a recovery that waited here sees the rounds the other one made
      const [endpoint]: Array<{ disabled: boolean }> = await m.query(
        `SELECT disabled_at IS NOT NULL AS disabled FROM webhook_endpoints WHERE id = $1 AND active FOR NO KEY UPDATE`,
        [endpointId],
      );
      if (!endpoint) return null;
      if (endpoint.disabled) return 'disabled';
      const [row]: Array<{ n: number }> = await m.query(RECOVER_SQL, [endpointId, since, WEBHOOK_TEST_EVENT]);
      return { events: Number(row?.n ?? 0) };
    });
  }

  async sendTest(endpointId: string, event: { id: string; type: string; body: string; createdAt: Date }): Promise<boolean> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `WITH endpoint AS (SELECT id, app_id, environment FROM webhook_endpoints WHERE id = $1 AND active),
       event AS (
         INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at, dispatched_at)
         SELECT $2::uuid, $3::uuid, e.environment, e.app_id, $4, $5, $6, now() FROM endpoint e
         RETURNING organization_id, id),
       delivery AS (
         INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at)
         SELECT ev.organization_id, gen_random_uuid(), ev.id, $1, now() FROM event ev
         RETURNING 1)
       SELECT count(*)::int AS n FROM delivery`,
      [endpointId, NO_ORGANIZATION, event.id, event.type, event.body, event.createdAt],
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  async removeEndpoint(m: EntityManager, appId: string, endpointId: string, at: Date): Promise<boolean> {
    // a SELECT at the top: a bare UPDATE … RETURNING is answered as [rows, count] (always 2 long)
    const rows: unknown[] = await m.query(
      `WITH removed AS (UPDATE webhook_endpoints SET active = false WHERE id = $1 AND app_id = $2 AND active RETURNING id)
       SELECT id FROM removed`,
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

/** Pending deliveries, due first, that nextDueInMs looks at (the pending partial index, webhook_deliveries_due_idx). */
const NEXT_DUE_LOOK = 1000;
/**
 * When the earliest of the first $1 pending deliveries (by due time) can be claimed: due, lease over, its
 * endpoint active and enabled (a disabled endpoint's backlog waits for its enabling, which notifies).
 */
const NEXT_DUE_SQL = `SELECT (EXTRACT(EPOCH FROM min(GREATEST(d.next_attempt_at, d.locked_until)) - now()) * 1000)::float8 AS ms
  FROM (SELECT endpoint_id, next_attempt_at, locked_until FROM webhook_deliveries
         WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY next_attempt_at LIMIT $1) d
  JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.active AND e.disabled_at IS NULL`;

/**
 * Claims due deliveries of enabled endpoints, at most $3 leased per endpoint at a time across all
 * dispatchers (the leases held right now are counted on the endpoint's due range: a lease is taken only
 * on a due delivery and ends when its attempt is recorded), $1 in all, leased for $2 ms.
 *
 * Only endpoints with work are looked at: `pending` walks the distinct endpoints that have a pending
 * delivery on the pending partial index webhook_deliveries_endpoint_due_idx (one index descent per such
 * endpoint, a loose index scan), and of those only the ones with a due, unleased delivery (one probe of
 * the same index each) are locked. An idle endpoint — however many there are — costs nothing, so a poll
 * when nothing is due reads a few index pages and writes nothing (docs/scaling.md).
 * The endpoint row is locked for the claim (SKIP LOCKED: an endpoint another dispatcher is claiming for is
 * left to it this time), so two instances never both count the same free slots.
 *
 * Fair across apps (issue 35, docs/adr/0010-self-service-webhooks-bounded.md): the candidates are taken
 * in order of their app's load, not of age alone — an app's k-th candidate has the place (sends the app
 * has in flight now, on any instance) + k, and the lowest places are claimed first, oldest first among
 * equal places. An app with nothing in flight is claimed ahead of another app's backlog, however old
 * that is, so one app's burst cannot hold back another app's first attempt. No app gets a place above
 * $4 (its sends in flight across all instances, at the time of the claim), so one app never fills a
 * dispatcher's slots.
 */
const CLAIM_DUE_SQL = `WITH RECURSIVE pending AS (
     (SELECT d.endpoint_id FROM webhook_deliveries d
       WHERE d.delivered_at IS NULL AND d.failed_at IS NULL
       ORDER BY d.endpoint_id LIMIT 1)
     UNION ALL
     SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
              WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.endpoint_id > p.endpoint_id
              ORDER BY d.endpoint_id LIMIT 1)
       FROM pending p WHERE p.endpoint_id IS NOT NULL),
   endpoints AS (
     SELECT e.id, e.app_id, e.room
       FROM pending p
       CROSS JOIN LATERAL (
         SELECT 1 FROM webhook_deliveries d
          WHERE d.endpoint_id = p.endpoint_id AND d.delivered_at IS NULL AND d.failed_at IS NULL
            AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
          LIMIT 1) has_due
       CROSS JOIN LATERAL (
         SELECT e.id, e.app_id, GREATEST($3::int - (
                  SELECT count(*) FROM webhook_deliveries l
                   WHERE l.endpoint_id = e.id AND l.delivered_at IS NULL AND l.failed_at IS NULL
                     AND l.next_attempt_at <= now() AND l.locked_until >= now())::int, 0) AS room
           FROM webhook_endpoints e
          WHERE e.id = p.endpoint_id AND e.active AND e.disabled_at IS NULL
          FOR NO KEY UPDATE SKIP LOCKED) e),
   app_load AS (
     SELECT a.app_id, (
              SELECT count(*) FROM webhook_endpoints x JOIN webhook_deliveries l ON l.endpoint_id = x.id
               WHERE x.app_id = a.app_id AND x.active
                 AND l.locked_until >= now() AND l.delivered_at IS NULL AND l.failed_at IS NULL)::int AS held
       FROM (SELECT DISTINCT app_id FROM endpoints WHERE room > 0) a),
   candidates AS (
     SELECT c.organization_id, c.id, c.next_attempt_at, e.app_id
       FROM endpoints e
       CROSS JOIN LATERAL (
         SELECT d.organization_id, d.id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.delivered_at IS NULL AND d.failed_at IS NULL
            AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
          ORDER BY d.next_attempt_at
          LIMIT e.room
          FOR UPDATE SKIP LOCKED) c
      WHERE e.room > 0),
   due AS (
     SELECT r.organization_id, r.id FROM (
       SELECT c.organization_id, c.id, c.next_attempt_at,
              a.held + row_number() OVER (PARTITION BY c.app_id ORDER BY c.next_attempt_at, c.id) AS place
         FROM candidates c JOIN app_load a ON a.app_id = c.app_id) r
      WHERE r.place <= $4
      ORDER BY r.place, r.next_attempt_at
      LIMIT $1),
   claimed AS (
     UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1
       FROM due WHERE d.organization_id = due.organization_id AND d.id = due.id
     RETURNING d.organization_id, d.id, d.event_id, d.endpoint_id, d.attempts)
   SELECT c.organization_id, c.id, c.event_id, c.endpoint_id, c.attempts, o.body, e.url, e.secret,
          CASE WHEN e.previous_secret_until > now() THEN e.previous_secret END AS previous_secret,
          CASE WHEN e.older_secret_until > now() THEN e.older_secret END AS older_secret
     FROM claimed c
     JOIN webhook_outbox o ON o.organization_id = c.organization_id AND o.id = c.event_id
     JOIN webhook_endpoints e ON e.id = c.endpoint_id`;

/**
 * Recover (CONTRACT §9): the events of endpoint $1's app and environment created at or after $2, but the
 * `webhook.test` ones ($3), each as a new delivery (the next round of that event and endpoint: its own
 * attempts, status and schedule; the body and webhook-id are the event's), due at once. An event not yet
 * fanned out gets its first round here, and the fan-out then leaves it (ON CONFLICT DO NOTHING). The
 * events are found by age (the outbox's created_at indexes: dispatched and pending), then by app.
 */
const RECOVER_SQL = `WITH endpoint AS (SELECT id, app_id, environment FROM webhook_endpoints WHERE id = $1),
   inserted AS (
     INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, next_attempt_at, round)
     SELECT o.organization_id, gen_random_uuid(), o.id, e.id, now(),
            COALESCE((SELECT max(d.round) + 1 FROM webhook_deliveries d
                       WHERE d.organization_id = o.organization_id AND d.event_id = o.id AND d.endpoint_id = e.id), 0)
       FROM endpoint e JOIN webhook_outbox o ON o.app_id = e.app_id AND o.environment = e.environment
      WHERE o.created_at >= $2 AND o.event_type <> $3
     ON CONFLICT DO NOTHING
     RETURNING 1)
   SELECT count(*)::int AS n FROM inserted`;

/**
 * Records a batch of attempts ($1, a JSON array) in one statement: the attempts, each delivery's outcome
 * (only while it is still at that attempt), and per endpoint since when it has failed without a 2xx; an
 * endpoint failing for $2 hours by its attempts' times is disabled. Endpoint rows are locked in id order
 * (two recorders never deadlock) and only when something of them changes. Answers how many deliveries
 * it finished (delivered, failed: given up), for the dispatcher's counter (metrics).
 */
const RECORD_ATTEMPTS_SQL = `WITH input AS (
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
       organization_id uuid, id uuid, endpoint_id uuid, attempt int, attempted_at timestamptz, status int, error text,
       duration_ms int, ok boolean, retry_ms double precision, address text)),
   attempts AS (
     INSERT INTO webhook_attempts (organization_id, delivery_id, attempt, attempted_at, status, error, duration_ms, address)
     SELECT organization_id, id, attempt, attempted_at, status, error, duration_ms, address FROM input
     ON CONFLICT DO NOTHING),
   outcome AS (
     SELECT endpoint_id, bool_or(ok) AS any_ok, min(attempted_at) FILTER (WHERE NOT ok) AS first_failure, max(attempted_at) AS last_attempt
       FROM input WHERE endpoint_id IS NOT NULL GROUP BY endpoint_id),
   locked AS (
     SELECT e.id, e.failing_since, o.any_ok, o.first_failure, o.last_attempt
       FROM webhook_endpoints e JOIN outcome o ON o.endpoint_id = e.id
      WHERE (o.any_ok AND e.failing_since IS NOT NULL)
         OR (NOT o.any_ok AND (e.failing_since IS NULL
             OR (e.disabled_at IS NULL AND o.last_attempt - e.failing_since >= make_interval(hours => $2::int))))
      ORDER BY e.id
      FOR NO KEY UPDATE OF e),
   endpoints AS (
     UPDATE webhook_endpoints e
        SET failing_since = CASE WHEN l.any_ok THEN NULL ELSE COALESCE(l.failing_since, l.first_failure) END,
            disabled_at = CASE
              WHEN NOT l.any_ok AND e.disabled_at IS NULL
               AND l.last_attempt - COALESCE(l.failing_since, l.first_failure) >= make_interval(hours => $2::int) THEN l.last_attempt
              ELSE e.disabled_at END
       FROM locked l WHERE e.id = l.id),
   recorded AS (
     UPDATE webhook_deliveries d SET locked_until = NULL, last_status = i.status, last_error = i.error, last_address = i.address,
            delivered_at = CASE WHEN i.ok THEN now() END,
            failed_at = CASE WHEN NOT i.ok AND i.retry_ms IS NULL THEN now() END,
            next_attempt_at = CASE WHEN NOT i.ok AND i.retry_ms IS NOT NULL THEN now() + make_interval(secs => i.retry_ms / 1000) ELSE d.next_attempt_at END
       FROM input i
      WHERE d.organization_id = i.organization_id AND d.id = i.id AND d.attempts = i.attempt
     RETURNING d.delivered_at, d.failed_at)
   SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL)::int AS delivered, count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
     FROM recorded`;

/**
 * Retention (CONTRACT §9): up to $2 events created before $1 of which nothing is pending (dispatched,
 * every delivery delivered or given up), with their deliveries and attempts, in one statement. Only rows
 * no write touches are locked (old events and what hangs off them; SKIP LOCKED: never waits for a
 * dispatcher), so no write ever waits for it. Receipts are another table and stay.
 */
export const PURGE_SQL = `WITH events AS (
     SELECT o.organization_id, o.id FROM webhook_outbox o
      WHERE o.dispatched_at IS NOT NULL AND o.created_at < $1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.organization_id = o.organization_id AND d.event_id = o.id AND d.delivered_at IS NULL AND d.failed_at IS NULL)
      ORDER BY o.created_at
      LIMIT $2
      FOR UPDATE SKIP LOCKED),
   deliveries AS (
     SELECT d.organization_id, d.id FROM webhook_deliveries d JOIN events e ON d.organization_id = e.organization_id AND d.event_id = e.id),
   attempts AS (
     DELETE FROM webhook_attempts a USING deliveries d WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id),
   gone AS (
     DELETE FROM webhook_deliveries x USING deliveries d WHERE x.organization_id = d.organization_id AND x.id = d.id),
   purged AS (
     DELETE FROM webhook_outbox o USING events e WHERE o.organization_id = e.organization_id AND o.id = e.id
     RETURNING 1)
   SELECT count(*)::int AS n FROM purged`;

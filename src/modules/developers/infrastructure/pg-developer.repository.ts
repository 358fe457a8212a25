import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import { AttachmentsSql } from '../../attachments/sql';
import {
  type DeveloperApp,
  type DeveloperCredentials,
  DeveloperRepository,
  type LoggedCallColumns,
  type PendingSignup,
  type QuotaKind,
  REQUEST_LOG_SCAN,
  type RequestLogFilter,
  type RequestLogPage,
  type UsesInWindow,
} from '../domain/developer.repository';
import { LOG_ENVIRONMENTS } from '../domain/request-log-filter';
import { bind, join, queryWith, raw, sql, type SqlFragment } from '../../../shared/database/sql-template';

interface DeveloperRow {
  id: string;
  email: string;
  password_hash: string;
  totp_secret: string;
  totp_last_step: string | number | null;
}

interface AppRow {
  id: string;
  developer_id: string;
  app_id: string;
  sandbox_project_id: string;
  sandbox_organization_id: string;
  sandbox_app_id: string;
}

const uses = (r: { n: string | number; oldest: Date | string | null }): UsesInWindow => ({
  n: Number(r.n),
  oldest: r.oldest === null ? null : new Date(r.oldest),
});

interface LogRow {
  id: string;
  app_id: string;
  environment: string;
  at: Date | string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  pointers: string;
  duration_ms: number;
  request_id: string;
  client_address: string;
  idempotency_key_prefix: string | null;
}

const appOfRow = (r: AppRow): DeveloperApp => ({
  id: r.id,
  developerId: r.developer_id,
  appId: r.app_id,
  sandboxProjectId: r.sandbox_project_id,
  sandboxOrganizationId: r.sandbox_organization_id,
  sandboxAppId: r.sandbox_app_id,
});

@Injectable()
export class PgDeveloperRepository extends DeveloperRepository {
  /** TOTP secrets are stored sealed (CONTRACT §8), under their own context. */
  constructor(private readonly box: SecretBox) {
    super();
  }

  private credentials(r: DeveloperRow | undefined): DeveloperCredentials | null {
    if (!r) return null;
    return {
      id: r.id,
      email: r.email,
      passwordHash: r.password_hash,
      totpSecret: this.box.openAny(r.totp_secret, SECRET_CONTEXT.developerTotp),
      lastAcceptedStep: r.totp_last_step === null ? null : Number(r.totp_last_step),
    };
  }

  async create(
    m: EntityManager,
    d: { id: string; email: string; passwordHash: string; totpSecret: string; lastAcceptedStep: number | null; at: Date },
  ): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO developers (id, email, password_hash, totp_secret, totp_last_step, created_at, last_sign_in_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [d.id, d.email, d.passwordHash, this.box.seal(d.totpSecret, SECRET_CONTEXT.developerTotp), d.lastAcceptedStep, d.at],
    );
    return rows.length > 0;
  }

  async signedIn(m: EntityManager, id: string, at: Date): Promise<void> {
    await m.query(`UPDATE developers SET last_sign_in_at = greatest(last_sign_in_at, $2) WHERE id = $1`, [id, at]);
  }

  async lock(m: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM developers WHERE id = $1 FOR UPDATE`, [id]);
    return rows.length > 0;
  }

  async demoOf(m: EntityManager, id: string, options: { lock: boolean }): Promise<{ email: string; organizationId: string | null } | null> {
    const [r]: Array<{ email: string; demo_organization_id: string | null }> = await m.query(
      `SELECT email, demo_organization_id FROM developers WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return r ? { email: r.email, organizationId: r.demo_organization_id } : null;
  }

  async setDemo(m: EntityManager, id: string, organizationId: string): Promise<void> {
    await m.query(`UPDATE developers SET demo_organization_id = $2 WHERE id = $1`, [id, organizationId]);
  }

  async attachmentStorage(m: EntityManager, organizationIds: string[]): Promise<number[]> {
    const rows: Array<{ bytes: string | number }> = await m.query(
      `SELECT ${AttachmentsSql.storageUsed('o.id')} AS bytes FROM unnest($1::uuid[]) WITH ORDINALITY AS o (id, n) ORDER BY o.n`,
      [organizationIds],
    );
    return rows.map((r) => Number(r.bytes));
  }

  async quotaUses(m: EntityManager, developerId: string, kind: QuotaKind, since: Date): Promise<UsesInWindow> {
    const [row]: Array<{ n: string | number; oldest: Date | string | null }> = await m.query(
      `SELECT count(*) AS n, min(at) AS oldest FROM developer_quota_events WHERE developer_id = $1 AND kind = $2 AND at > $3`,
      [developerId, kind, since],
    );
    return uses(row);
  }

  async recordQuotaUse(m: EntityManager, developerId: string, kind: QuotaKind, at: Date): Promise<void> {
    await m.query(`INSERT INTO developer_quota_events (developer_id, kind, at) VALUES ($1, $2, $3)`, [developerId, kind, at]);
  }

  async lockSignupSenders(m: EntityManager, email: string, client: string): Promise<void> {
    // two keys of one lock space ('developer_signups' hashed), the email's first: a transaction waiting for
    // the email's lock holds nothing, so no two wait for each other
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('developer_signups email ' || lower($1), 0))`, [email]);
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('developer_signups client ' || $1, 0))`, [client]);
  }

  async signupsSent(m: EntityManager, email: string, client: string, since: Date): Promise<{ email: UsesInWindow; client: UsesInWindow }> {
    const [byEmail]: Array<{ n: string | number; oldest: Date | string | null }> = await m.query(
      `SELECT count(*) AS n, min(created_at) AS oldest FROM developer_signups WHERE lower(email) = lower($1) AND created_at > $2`,
      [email, since],
    );
    const [byClient]: Array<{ n: string | number; oldest: Date | string | null }> = await m.query(
      `SELECT count(*) AS n, min(created_at) AS oldest FROM developer_signups WHERE client_address = $1 AND created_at > $2`,
      [client, since],
    );
    return { email: uses(byEmail), client: uses(byClient) };
  }

  async recordSignup(m: EntityManager, s: { id: string; email: string; client: string; tokenHash: string | null; at: Date; expiresAt: Date }): Promise<void> {
    await m.query(`INSERT INTO developer_signups (id, email, client_address, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      s.id,
      s.email,
      s.client,
      s.tokenHash,
      s.at,
      s.expiresAt,
    ]);
  }

  async openSignup(m: EntityManager, by: { tokenHash: string } | { id: string }, now: Date, lock: boolean): Promise<PendingSignup | null> {
    const [column, value] = 'tokenHash' in by ? ['token_hash', by.tokenHash] : ['id', by.id];
    const rows: Array<{ id: string; email: string }> = await m.query(
      `SELECT id, email FROM developer_signups
        WHERE ${column} = $1 AND token_hash IS NOT NULL AND expires_at > $2${lock ? ' FOR UPDATE' : ''}`,
      [value, now],
    );
    return rows[0] ? { id: rows[0].id, email: rows[0].email } : null;
  }

  async closeSignups(m: EntityManager, email: string): Promise<void> {
    await m.query(`UPDATE developer_signups SET token_hash = NULL WHERE lower(email) = lower($1) AND token_hash IS NOT NULL`, [email]);
  }

  async findByEmail(m: EntityManager, email: string): Promise<DeveloperCredentials | null> {
    const rows: DeveloperRow[] = await m.query(`SELECT * FROM developers WHERE lower(email) = lower($1)`, [email]);
    return this.credentials(rows[0]);
  }

  async findForUpdate(m: EntityManager, id: string): Promise<DeveloperCredentials | null> {
    const rows: DeveloperRow[] = await m.query(`SELECT * FROM developers WHERE id = $1 FOR UPDATE`, [id]);
    return this.credentials(rows[0]);
  }

  async consumeStep(m: EntityManager, id: string, step: number): Promise<boolean> {
    // a SELECT at the top: a bare UPDATE … RETURNING is answered as [rows, count] (always 2 long)
    const rows: unknown[] = await m.query(
      `WITH used AS (UPDATE developers SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id)
       SELECT id FROM used`,
      [id, step],
    );
    return rows.length > 0;
  }

  async reserveApp(m: EntityManager, developerId: string, reservationId: string, max: number): Promise<boolean> {
    await m.query(`SELECT 1 FROM developers WHERE id = $1 FOR UPDATE`, [developerId]);
    const rows: Array<{ n: string | number }> = await m.query(`SELECT count(*) AS n FROM developer_apps WHERE developer_id = $1`, [developerId]);
    if (Number(rows[0].n) >= max) return false;
    await m.query(`INSERT INTO developer_apps (id, developer_id) VALUES ($1, $2)`, [reservationId, developerId]);
    return true;
  }

  async completeApp(m: EntityManager, reservationId: string, a: Omit<DeveloperApp, 'id' | 'developerId'>): Promise<void> {
    await m.query(`UPDATE developer_apps SET app_id = $2, sandbox_project_id = $3, sandbox_organization_id = $4, sandbox_app_id = $5 WHERE id = $1`, [
      reservationId,
      a.appId,
      a.sandboxProjectId,
      a.sandboxOrganizationId,
      a.sandboxAppId,
    ]);
  }

  async dropReservation(m: EntityManager, reservationId: string): Promise<void> {
    await m.query(`DELETE FROM developer_apps WHERE id = $1 AND app_id IS NULL`, [reservationId]);
  }

  async appsOf(m: EntityManager, developerId: string): Promise<DeveloperApp[]> {
    const rows: AppRow[] = await m.query(`SELECT * FROM developer_apps WHERE developer_id = $1 AND app_id IS NOT NULL ORDER BY created_at, id`, [developerId]);
    return rows.map(appOfRow);
  }

  async appOf(m: EntityManager, developerId: string, appId: string): Promise<DeveloperApp | null> {
    const rows: AppRow[] = await m.query(`SELECT * FROM developer_apps WHERE developer_id = $1 AND app_id = $2`, [developerId, appId]);
    return rows[0] ? appOfRow(rows[0]) : null;
  }

  async recordCalls(m: EntityManager, calls: LoggedCallColumns): Promise<void> {
    if (calls.appId.length === 0) return;
    // The log is best effort (a full queue drops, a stopped process loses what waits): its batch does not wait
    // for the WAL flush, which frees its pool connection sooner (bench/RESULTS.md, "Figures behind code comments").
    // A PostgreSQL crash can lose the last few hundred ms of entries (3 × wal_writer_delay), never other writes.
    await m.query('SET LOCAL synchronous_commit = off');
    await m.query(
      `INSERT INTO request_log (app_id, environment, at, method, path, status, code, pointers, duration_ms, request_id, client_address, idempotency_key_prefix)
       SELECT app_id, environment, to_timestamp(at_ms / 1000), method, path, status, code, pointers, duration_ms, request_id, client_address, key_prefix
         FROM unnest($1::uuid[], $2::text[], $3::float8[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[], $12::text[])
           AS c(app_id, environment, at_ms, method, path, status, code, pointers, duration_ms, request_id, client_address, key_prefix)`,
      [
        calls.appId,
        calls.environment,
        calls.at,
        calls.method,
        calls.path,
        calls.status,
        calls.code,
        calls.pointers,
        calls.durationMs,
        calls.requestId,
        calls.clientAddress,
        calls.idempotencyKeyPrefix,
      ],
    );
  }

  /**
   * One statement (CONTRACT §20: a filtered page within 500 ms with 2 M calls in the log). Each stream — one
   * app in one environment — is read newest first from its index (request_log_app_idx, or the Status and
   * Request id indexes of migration 1766610000000) and stops after `limit` rows; the streams merge by id. `app_id
   * = ANY(…) ORDER BY id` in one scan could use no index's order: PostgreSQL walked the primary key backwards,
   * through every tenant's calls. Path contains is a plain substring (strpos, never a pattern) and has no index:
   * the page examines the newest `scan` calls of its streams and says where it stopped (`scan_end`).
   */
  async requestLog(m: EntityManager, appIds: string[], filter: RequestLogFilter, limit: number, scan = REQUEST_LOG_SCAN): Promise<RequestLogPage> {
    if (appIds.length === 0) return { calls: [], scannedTo: null };
    const bySubstring = filter.pathContains !== undefined;
    // each filter's value is one parameter, however many streams repeat its condition
    const where: SqlFragment[] = [];
    // what the page's rows must also match: Path contains, and with it Status (read in the stream's order, the
    // heap in the order it was written — the Status index's rows scattered over it made a page 4x slower)
    const test: SqlFragment[] = [];
    // the class, as request_log_status_idx holds it
    if (filter.status) (bySubstring ? test : where).push(sql`(r.status / 100) = ${bind(Number(filter.status[0]))}::int`);
    if (filter.requestId) where.push(sql`r.request_id = ${bind(filter.requestId)}`);
    if (filter.before) where.push(sql`r.id < ${bind(filter.before)}::bigint`);
    const streamLimit = bind(bySubstring ? scan : limit);
    // one stream per app and environment (an app's two ids may be one), each its own statement part with its
    // values as parameters, so that PostgreSQL plans it with the app's own statistics. `app_id = ANY('{…}')` and
    // the order by app_id first: only the app's index gives that order, never the primary key read backwards
    // (which the planner picks when an app has half the table's rows, and which then walks through every newer
    // call of the other tenants first). The same order is the Status and Request id indexes', after their column.
    // every key column descending: the stream's index (ascending, migration 1766690000000) read backwards
    const indexColumn = raw(!bySubstring && filter.status ? '(r.status / 100) DESC, ' : filter.requestId ? 'r.request_id DESC, ' : '');
    const streams: SqlFragment[] = [];
    for (const appId of new Set(appIds)) {
      for (const environment of filter.environment ? [filter.environment] : LOG_ENVIRONMENTS) {
        streams.push(
          sql`(SELECT r.id, r.path, r.status FROM request_log r WHERE r.app_id = ANY(${[appId]}::uuid[]) AND r.environment = ${environment}${join(
            where.map((w) => sql` AND ${w}`),
            '',
          )} ORDER BY r.app_id DESC, r.environment DESC, ${indexColumn}r.id DESC LIMIT ${streamLimit})`,
        );
      }
    }
    if (bySubstring) test.push(sql`strpos(r.path, ${filter.pathContains}) > 0`);
    const rows = await queryWith<LogRow & { scan_end: string | null }>(
      m,
      sql`WITH scanned AS MATERIALIZED (SELECT x.id, x.path, x.status FROM (${join(streams, ' UNION ALL ')}) AS x ORDER BY x.id DESC LIMIT ${streamLimit})
       SELECT p.*, b.scan_end
         FROM (SELECT CASE WHEN count(*) = ${streamLimit} THEN min(id)::text END AS scan_end FROM scanned) AS b
         LEFT JOIN LATERAL (
           SELECT c.* FROM (SELECT r.id FROM scanned r WHERE ${test.length ? join(test, ' AND ') : raw('true')} ORDER BY r.id DESC LIMIT ${limit}) AS s
             -- each call by its id (LIMIT 1 keeps this a look-up: as a join, PostgreSQL may merge with the whole primary key read backwards)
             CROSS JOIN LATERAL (
               SELECT r.id AS n, r.id::text AS id, r.app_id, r.environment, r.at, r.method, r.path, r.status, r.code, r.pointers, r.duration_ms, r.request_id,
                      r.client_address, r.idempotency_key_prefix
                 FROM request_log r WHERE r.id = s.id LIMIT 1) AS c) AS p ON true
        ORDER BY p.n DESC`,
    );
    const calls = rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id,
        appId: r.app_id,
        environment: r.environment,
        at: r.at instanceof Date ? r.at : new Date(r.at),
        method: r.method,
        path: r.path,
        status: Number(r.status),
        code: r.code,
        pointers: r.pointers === '' ? [] : r.pointers.split('\n'),
        durationMs: Number(r.duration_ms),
        requestId: r.request_id,
        clientAddress: r.client_address,
        idempotencyKeyPrefix: r.idempotency_key_prefix,
      }));
    // only a substring page stops short of its streams; a full page of matches has its own Older
    return { calls, scannedTo: bySubstring && calls.length < limit ? (rows[0]?.scan_end ?? null) : null };
  }

  async purgeRequestLog(m: EntityManager, before: Date, size: number): Promise<number> {
    const rows: unknown[] = await m.query(
      `DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
      [before, size],
    );
    return rows.length;
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import { type DeveloperApp, type DeveloperCredentials, DeveloperRepository, type RefusedCall } from '../domain/developer.repository';

interface DeveloperRow {
  id: string;
  email: string;
  password_hash: string;
  totp_secret: string;
  totp_last_step: string | number | null;
}

interface AppRow {
  id: string;
  app_id: string;
  sandbox_project_id: string;
  sandbox_organization_id: string;
  sandbox_app_id: string;
}

const appOfRow = (r: AppRow): DeveloperApp => ({
  id: r.id,
  appId: r.app_id,
  sandboxProjectId: r.sandbox_project_id,
  sandboxOrganizationId: r.sandbox_organization_id,
  sandboxAppId: r.sandbox_app_id,
});

@Injectable()
export class TypeOrmDeveloperRepository extends DeveloperRepository {
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

  async create(m: EntityManager, d: { id: string; email: string; passwordHash: string; totpSecret: string; lastAcceptedStep: number }): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO developers (id, email, password_hash, totp_secret, totp_last_step) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [d.id, d.email, d.passwordHash, this.box.seal(d.totpSecret, SECRET_CONTEXT.developerTotp), d.lastAcceptedStep],
    );
    return rows.length > 0;
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

  async completeApp(m: EntityManager, reservationId: string, a: Omit<DeveloperApp, 'id'>): Promise<void> {
    await m.query(
      `UPDATE developer_apps SET app_id = $2, sandbox_project_id = $3, sandbox_organization_id = $4, sandbox_app_id = $5 WHERE id = $1`,
      [reservationId, a.appId, a.sandboxProjectId, a.sandboxOrganizationId, a.sandboxAppId],
    );
  }

  async dropReservation(m: EntityManager, reservationId: string): Promise<void> {
    await m.query(`DELETE FROM developer_apps WHERE id = $1 AND app_id IS NULL`, [reservationId]);
  }

  async appsOf(m: EntityManager, developerId: string): Promise<DeveloperApp[]> {
    const rows: AppRow[] = await m.query(
      `SELECT * FROM developer_apps WHERE developer_id = $1 AND app_id IS NOT NULL ORDER BY created_at, id`,
      [developerId],
    );
    return rows.map(appOfRow);
  }

  async appOf(m: EntityManager, developerId: string, appId: string): Promise<DeveloperApp | null> {
    const rows: AppRow[] = await m.query(`SELECT * FROM developer_apps WHERE developer_id = $1 AND app_id = $2`, [developerId, appId]);
    return rows[0] ? appOfRow(rows[0]) : null;
  }

  async recordRefusals(m: EntityManager, calls: RefusedCall[], keep: number): Promise<void> {
    if (calls.length === 0) return;
    await m.query(
      `INSERT INTO refused_calls (app_id, environment, at, method, path, status, code, request_id, pointers)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[])
           AS c(app_id, environment, at, method, path, status, code, request_id, pointers)`,
      [
        calls.map((c) => c.appId),
        calls.map((c) => c.environment),
        calls.map((c) => c.at),
        calls.map((c) => c.method),
        calls.map((c) => c.path),
        calls.map((c) => c.status),
        calls.map((c) => c.code),
        calls.map((c) => c.requestId),
        // one text per call: the pointers joined by a newline (a pointer holds none: they are made by the service)
        calls.map((c) => c.pointers.join('\n')),
      ],
    );
    // bounded per app and environment: only the newest `keep` stay
    const seen = new Set<string>();
    for (const c of calls) {
      const key = `${c.appId} ${c.environment}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await m.query(
        `DELETE FROM refused_calls WHERE app_id = $1 AND environment = $2 AND id < (
           SELECT min(id) FROM (SELECT id FROM refused_calls WHERE app_id = $1 AND environment = $2 ORDER BY id DESC LIMIT $3) newest)`,
        [c.appId, c.environment, keep],
      );
    }
  }

  async refusedCalls(m: EntityManager, appIds: string[], limit: number): Promise<RefusedCall[]> {
    if (appIds.length === 0) return [];
    const rows: Array<{ app_id: string; environment: string; at: Date | string; method: string; path: string; status: number; code: string; request_id: string; pointers: string }> =
      await m.query(
        `SELECT r.* FROM unnest($1::uuid[]) AS a(app_id), unnest(ARRAY['sandbox', 'production']) AS e(environment),
                LATERAL (SELECT app_id, environment, at, method, path, status, code, request_id, pointers
                           FROM refused_calls WHERE app_id = a.app_id AND environment = e.environment ORDER BY id DESC LIMIT $2) r
          ORDER BY r.at DESC`,
        [appIds, limit],
      );
    return rows.map((r) => ({
      appId: r.app_id,
      environment: r.environment,
      at: r.at instanceof Date ? r.at : new Date(r.at),
      method: r.method,
      path: r.path,
      status: Number(r.status),
      code: r.code,
      requestId: r.request_id,
      pointers: r.pointers === '' ? [] : r.pointers.split('\n'),
    }));
  }
}

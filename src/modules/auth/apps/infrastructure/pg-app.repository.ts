import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AppRecord, AppRepository, type PendingRevision } from '../domain/app.repository';
import type { AppPublisher } from '../domain/app-read.repository';

@Injectable()
export class PgAppRepository extends AppRepository {
  async create(m: EntityManager, app: { id: string; name: string }): Promise<void> {
    await m.query(`INSERT INTO apps (id, name) VALUES ($1, $2)`, [app.id, app.name]);
  }

  async setPublisher(m: EntityManager, appId: string, p: AppPublisher): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `WITH set AS (UPDATE apps SET publisher_name = $2, website_url = $3, privacy_policy_url = $4, cvr = $5 WHERE id = $1 RETURNING id) SELECT id FROM set`,
      [appId, p.name, p.website, p.privacyPolicy, p.cvr],
    );
    return rows.length > 0;
  }

  async verifyApprovedPublisher(m: EntityManager, appId: string, at: Date): Promise<AppPublisher | null> {
    const rows: Array<{ publisher_name: string | null; website_url: string | null; privacy_policy_url: string | null; cvr: string | null }> = await m.query(
      `WITH verified AS (
         UPDATE app_revisions r SET publisher_verified_at = coalesce(r.publisher_verified_at, $2)
           FROM apps a WHERE a.id = $1 AND r.id = a.approved_revision_id
          RETURNING r.publisher_name, r.website_url, r.privacy_policy_url, r.cvr)
       SELECT * FROM verified`,
      [appId, at],
    );
    const r = rows[0];
    return r ? { name: r.publisher_name, website: r.website_url, privacyPolicy: r.privacy_policy_url, cvr: r.cvr } : null;
  }

  async find(m: EntityManager, appId: string, options: { lock?: boolean } = {}): Promise<AppRecord | null> {
    const rows: Array<{ id: string; approved_revision_id: string | null }> = await m.query(
      `SELECT id, approved_revision_id FROM apps WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [appId],
    );
    const r = rows[0];
    return r ? { id: r.id, approvedRevisionId: r.approved_revision_id } : null;
  }

  async createRevision(m: EntityManager, appId: string, revisionId: string): Promise<number> {
    const rows: Array<{ number: number }> = await m.query(
      `INSERT INTO app_revisions (id, app_id, number, publisher_name, website_url, privacy_policy_url, cvr)
       SELECT $1::uuid, a.id, (SELECT coalesce(max(number), 0) + 1 FROM app_revisions WHERE app_id = a.id),
              a.publisher_name, a.website_url, a.privacy_policy_url, a.cvr
         FROM apps a WHERE a.id = $2::uuid
       RETURNING number`,
      [revisionId, appId],
    );
    return rows[0].number;
  }

  async approveRevision(m: EntityManager, appId: string, revisionId: string, at: Date): Promise<number | null> {
    const rows: Array<{ number: number }> = await m.query(
      `WITH approved AS (
         UPDATE app_revisions SET approved_at = coalesce(approved_at, $3)
          WHERE id = $2 AND app_id = $1
          RETURNING number)
       SELECT number FROM approved`,
      [appId, revisionId, at],
    );
    if (rows.length === 0) return null;
    // the operator verified a publisher, not an app: a revision with the same publisher keeps the verification
    await m.query(
      `UPDATE app_revisions r SET publisher_verified_at = coalesce(r.publisher_verified_at, prev.publisher_verified_at)
         FROM apps a JOIN app_revisions prev ON prev.id = a.approved_revision_id
        WHERE a.id = $1 AND r.id = $2 AND prev.id <> r.id
          AND (r.publisher_name, r.website_url, r.privacy_policy_url, r.cvr) IS NOT DISTINCT FROM (prev.publisher_name, prev.website_url, prev.privacy_policy_url, prev.cvr)`,
      [appId, revisionId],
    );
    await m.query(`UPDATE apps SET approved_revision_id = $2 WHERE id = $1`, [appId, revisionId]);
    return rows[0].number;
  }

  async hasPendingRevision(m: EntityManager, appId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM app_revisions r JOIN apps a ON a.id = r.app_id
         LEFT JOIN app_revisions ap ON ap.id = a.approved_revision_id
        WHERE r.app_id = $1 AND r.approved_at IS NULL AND (ap.id IS NULL OR r.number > ap.number)
        LIMIT 1`,
      [appId],
    );
    return rows.length > 0;
  }

  async pendingRevisions(m: EntityManager): Promise<PendingRevision[]> {
    // pending: not approved, and newer than the approved revision (an older one was passed over)
    const rows: Array<{ app_id: string; app_name: string; revision_id: string; number: number; submitted_at: Date | string }> = await m.query(
      `SELECT r.app_id, a.name AS app_name, r.id AS revision_id, r.number, r.created_at AS submitted_at
         FROM app_revisions r JOIN apps a ON a.id = r.app_id
         LEFT JOIN app_revisions ap ON ap.id = a.approved_revision_id
        WHERE r.approved_at IS NULL AND (ap.id IS NULL OR r.number > ap.number)
        ORDER BY r.created_at, r.app_id, r.number
        LIMIT 1000`,
    );
    return rows.map((r) => ({
      app_id: r.app_id,
      app_name: r.app_name,
      revision_id: r.revision_id,
      number: Number(r.number),
      submitted_at: (r.submitted_at instanceof Date ? r.submitted_at : new Date(r.submitted_at)).toISOString(),
    }));
  }
}

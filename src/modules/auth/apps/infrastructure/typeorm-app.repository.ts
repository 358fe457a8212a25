import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AppRecord, AppRepository, type PendingRevision } from '../domain/app.repository';

@Injectable()
export class TypeOrmAppRepository extends AppRepository {
  async create(m: EntityManager, app: { id: string; name: string }): Promise<void> {
    await m.query(`INSERT INTO apps (id, name) VALUES ($1, $2)`, [app.id, app.name]);
  }

  async setPublisher(m: EntityManager, appId: string, p: { name: string | null; website: string | null; privacyPolicy: string | null }): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `WITH set AS (UPDATE apps SET publisher_name = $2, website_url = $3, privacy_policy_url = $4 WHERE id = $1 RETURNING id) SELECT id FROM set`,
      [appId, p.name, p.website, p.privacyPolicy],
    );
    return rows.length > 0;
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
      `INSERT INTO app_revisions (id, app_id, number)
       SELECT $1::uuid, $2::uuid, coalesce(max(number), 0) + 1 FROM app_revisions WHERE app_id = $2::uuid
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

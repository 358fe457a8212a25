import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AppPublisher, AppReadRepository, type AppSummary } from '../domain/app-read.repository';
import { AppsSql } from '../sql';

@Injectable()
export class PgAppReadRepository extends AppReadRepository {
  async app(m: EntityManager, appId: string): Promise<AppSummary | null> {
    type Publisher = { publisher_name: string | null; website_url: string | null; privacy_policy_url: string | null; cvr: string | null };
    const rows: Array<{ id: string; name: string; approved_revision_id: string | null; draft: Publisher; approved: Publisher | null; verified: boolean }> =
      await m.query(
        `SELECT a.id, a.name, a.approved_revision_id,
              json_build_object('publisher_name', a.publisher_name, 'website_url', a.website_url, 'privacy_policy_url', a.privacy_policy_url, 'cvr', a.cvr) AS draft,
              CASE WHEN r.id IS NOT NULL THEN json_build_object('publisher_name', r.publisher_name, 'website_url', r.website_url, 'privacy_policy_url', r.privacy_policy_url, 'cvr', r.cvr) END AS approved,
              r.publisher_verified_at IS NOT NULL AS verified
         FROM apps a LEFT JOIN app_revisions r ON r.id = a.approved_revision_id
        WHERE a.id = $1`,
        [appId],
      );
    const r = rows[0];
    const publisher = (p: Publisher | null): AppPublisher => ({
      name: p?.publisher_name ?? null,
      website: p?.website_url ?? null,
      privacyPolicy: p?.privacy_policy_url ?? null,
      cvr: p?.cvr ?? null,
    });
    return r
      ? {
          id: r.id,
          name: r.name,
          approvedRevisionId: r.approved_revision_id,
          publisher: publisher(r.approved),
          publisherVerified: r.verified === true,
          draftPublisher: publisher(r.draft),
        }
      : null;
  }

  async revisions(m: EntityManager, appId: string): Promise<Array<{ id: string; number: number; approved: boolean }>> {
    const rows: Array<{ id: string; number: number; approved: boolean }> = await m.query(AppsSql.revisionsOfApp, [appId]);
    return rows.map((r) => ({ id: r.id, number: Number(r.number), approved: r.approved === true }));
  }

  async names(m: EntityManager, appIds: string[]): Promise<Array<{ id: string; name: string }>> {
    if (appIds.length === 0) return [];
    return m.query(`SELECT id, name FROM apps WHERE id = ANY($1::uuid[]) ORDER BY name, id`, [appIds]);
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppReadRepository, type AppSummary } from '../domain/app-read.repository';
import { AppsSql } from '../sql';

@Injectable()
export class TypeOrmAppReadRepository extends AppReadRepository {
  async app(m: EntityManager, appId: string): Promise<AppSummary | null> {
    const rows: Array<{
      id: string;
      name: string;
      approved_revision_id: string | null;
      publisher_name: string | null;
      website_url: string | null;
      privacy_policy_url: string | null;
    }> = await m.query(`SELECT id, name, approved_revision_id, publisher_name, website_url, privacy_policy_url FROM apps WHERE id = $1`, [appId]);
    const r = rows[0];
    return r
      ? {
          id: r.id,
          name: r.name,
          approvedRevisionId: r.approved_revision_id,
          publisher: { name: r.publisher_name, website: r.website_url, privacyPolicy: r.privacy_policy_url },
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

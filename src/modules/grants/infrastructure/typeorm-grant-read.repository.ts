import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GrantReadRepository, type GrantView } from '../domain/grant-read.repository';

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

@Injectable()
export class TypeOrmGrantReadRepository extends GrantReadRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
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
}

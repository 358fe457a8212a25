import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type PathResource, ResourceLookupRepository } from '../domain/resource-lookup.repository';

/** Each look-up is one primary-key or indexed equality (accounts_id_idx, grants_id_idx, mandates_id_idx). */
const EXISTS_SQL: Readonly<Record<PathResource, string>> = {
  organization: `SELECT 1 FROM organizations WHERE id = $1`,
  account: `SELECT 1 FROM accounts WHERE id = $1 LIMIT 1`,
  app: `SELECT 1 FROM apps WHERE id = $1`,
  grant: `SELECT 1 FROM grants WHERE id = $1 LIMIT 1`,
  mandate: `SELECT 1 FROM mandates WHERE id = $1 LIMIT 1`,
  sandbox_project: `SELECT 1 FROM sandbox_projects WHERE id = $1`,
};

@Injectable()
export class TypeOrmResourceLookupRepository extends ResourceLookupRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async exists(kind: PathResource, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(EXISTS_SQL[kind], [id]);
    return rows.length > 0;
  }

  async revisionOfApp(appId: string, revisionId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM app_revisions WHERE id = $1 AND app_id = $2`, [
      revisionId,
      appId,
    ]);
    return rows.length > 0;
  }
}

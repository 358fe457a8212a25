import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppsSql } from '../../auth/apps/sql';
import { GrantsSql } from '../../auth/grants/sql';
import { OrganizationsSql } from '../../auth/organizations/sql';
import { SandboxSql } from '../../auth/sandbox/sql';
import { WebhooksSql } from '../../webhooks/sql';
import { type PathResource, ResourceLookupRepository } from '../domain/resource-lookup.repository';

/** Each look-up is one primary-key or indexed equality (accounts_id_idx, grants_id_idx, mandates_id_idx). */
const EXISTS_SQL: Readonly<Record<PathResource, string>> = {
  organization: OrganizationsSql.organizationExists,
  account: OrganizationsSql.accountExists,
  app: AppsSql.appExists,
  grant: GrantsSql.grantExists,
  mandate: GrantsSql.mandateExists,
  sandbox_project: SandboxSql.projectExists,
  user: OrganizationsSql.userExists,
  webhook_endpoint: WebhooksSql.endpointExists,
};

@Injectable()
export class PgResourceLookupRepository extends ResourceLookupRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async exists(kind: PathResource, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(EXISTS_SQL[kind], [id]);
    return rows.length > 0;
  }

  async revisionOfApp(appId: string, revisionId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(AppsSql.revisionOfAppExists, [revisionId, appId]);
    return rows.length > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
import type { PermittedAccounts } from '../../../shared/domain/caller-context';
import { GrantsSql } from '../../auth/grants/sql';
import { OrganizationsSql } from '../../auth/organizations/sql';
import { type ChartAccount, ChartReadRepository, type ChartTaxCode } from '../domain/chart';
import { compileSql, raw, sql } from '../../../shared/database/sql-template';

/** sandbox: every active account of the project's organization (grantId null); production: the grant's selection. */
const ACCOUNTS = compileSql(['organizationId', 'grantId'] as const, (s) =>
  OrganizationsSql.permittedActiveAccounts({
    organizationId: s.organizationId,
    permitted: (account) => sql`${s.grantId}::uuid IS NULL OR ${GrantsSql.grantSelectsAccount(raw('a.organization_id'), s.grantId, account, '       ')}`,
  }),
);

@Injectable()
export class PgChartReadRepository extends ChartReadRepository {
  constructor(private readonly sql: Sql) {
    super();
  }

  accounts(organizationId: string, permitted: PermittedAccounts): Promise<ChartAccount[]> {
    return this.sql.query<ChartAccount>(ACCOUNTS.text, ACCOUNTS.values({ organizationId, grantId: permitted.kind === 'grant' ? permitted.grantId : null }));
  }

  taxCodes(organizationId: string): Promise<ChartTaxCode[]> {
    return this.sql.query<ChartTaxCode>(OrganizationsSql.taxCodesOf, [organizationId]);
  }
}

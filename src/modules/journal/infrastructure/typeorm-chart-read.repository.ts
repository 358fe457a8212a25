import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
import type { PermittedAccounts } from '../../../shared/domain/caller-context';
import { GrantsSql } from '../../auth/grants/sql';
import { OrganizationsSql } from '../../auth/organizations/sql';
import { type ChartAccount, ChartReadRepository, type ChartTaxCode } from '../domain/chart';

/** sandbox: every active account of the project's organization ($2 is null); production: the grant $2's selection. */
const ACCOUNTS_SQL = OrganizationsSql.permittedActiveAccounts({
  organizationId: '$1',
  permitted: (account) => `$2::uuid IS NULL OR ${GrantsSql.grantSelectsAccount('a.organization_id', '$2', account, '       ')}`,
});

@Injectable()
export class TypeOrmChartReadRepository extends ChartReadRepository {
  constructor(private readonly sql: Sql) {
    super();
  }

  accounts(organizationId: string, permitted: PermittedAccounts): Promise<ChartAccount[]> {
    return this.sql.query<ChartAccount>(ACCOUNTS_SQL, [organizationId, permitted.kind === 'grant' ? permitted.grantId : null]);
  }

  taxCodes(organizationId: string): Promise<ChartTaxCode[]> {
    return this.sql.query<ChartTaxCode>(OrganizationsSql.taxCodesOf, [organizationId]);
  }
}

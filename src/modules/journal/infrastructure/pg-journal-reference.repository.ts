import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GrantsSql } from '../../auth/grants/sql';
import { OrganizationsSql } from '../../auth/organizations/sql';
import type { PermittedAccounts } from '../../../shared/domain/caller-context';
import { JournalReferenceRepository } from '../domain/journal-references';
import { compileSql, raw, sql } from '../../../shared/database/sql-template';

/** The accounts (permitted by the grant, when not null) and tax codes among the ids, composed of their owners' parts. */
const FIND_USABLE = compileSql(
  ['organizationId', 'accountIds', 'grantId', 'taxCodeIds'] as const,
  (s) =>
    sql`${OrganizationsSql.activeAccountIds({
      alias: 'a',
      select: `'a' AS kind, `,
      organizationId: s.organizationId,
      ids: sql`${s.accountIds}::uuid[]`,
      indent: '   ',
      permitted: (account) => sql`${s.grantId}::uuid IS NULL OR ${GrantsSql.grantSelectsAccount(raw('a.organization_id'), s.grantId, account, ' '.repeat(10))}`,
    })}
       UNION ALL
       ${OrganizationsSql.taxCodeIds({ alias: 't', select: `'t', `, organizationId: s.organizationId, ids: sql`${s.taxCodeIds}::uuid[]` })}`,
);

@Injectable()
export class PgJournalReferenceRepository extends JournalReferenceRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findUsable(
    organizationId: string,
    permitted: PermittedAccounts,
    accountIds: string[],
    taxCodeIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ accounts: Set<string>; taxCodes: Set<string> }> {
    const grantId = permitted.kind === 'grant' ? permitted.grantId : null;
    const rows: Array<{ kind: 'a' | 't'; id: string }> = await manager.query(
      FIND_USABLE.text,
      FIND_USABLE.values({ organizationId, accountIds, grantId, taxCodeIds }),
    );
    const accounts = new Set<string>();
    const taxCodes = new Set<string>();
    for (const row of rows) (row.kind === 'a' ? accounts : taxCodes).add(row.id);
    return { accounts, taxCodes };
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PermittedAccounts } from '../../../shared/domain/caller-context';
import { JournalReferenceRepository } from '../domain/journal-references';

@Injectable()
export class TypeOrmJournalReferenceRepository extends JournalReferenceRepository {
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
      `SELECT 'a' AS kind, a.id FROM accounts a
        WHERE a.organization_id = $1 AND a.id = ANY($2::uuid[]) AND a.active
          AND ($3::uuid IS NULL OR EXISTS (
                SELECT 1 FROM grant_accounts ga
                 WHERE ga.organization_id = a.organization_id AND ga.grant_id = $3 AND ga.account_id = a.id))
       UNION ALL
       SELECT 't', t.id FROM tax_codes t WHERE t.organization_id = $1 AND t.id = ANY($4::uuid[])`,
      [organizationId, accountIds, grantId, taxCodeIds],
    );
    const accounts = new Set<string>();
    const taxCodes = new Set<string>();
    for (const row of rows) (row.kind === 'a' ? accounts : taxCodes).add(row.id);
    return { accounts, taxCodes };
  }
}

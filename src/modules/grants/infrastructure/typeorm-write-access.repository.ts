import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf } from '../../../shared/database/transactions';
import type { StatementGate } from '../../../shared/domain/row-insert';
import type { Transaction } from '../../../shared/domain/transaction';
import { OrganizationsSql } from '../../organizations/sql';
import { type GrantWriteState, WriteAccessRepository } from '../domain/write-access.repository';

interface GrantRow {
  revoked_at: Date | null;
  superseded_at: Date | null;
  expires_at: Date;
}


@Injectable()
export class TypeOrmWriteAccessRepository extends WriteAccessRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async grantForWrite(tx: Transaction | null, organizationId: string, grantId: string): Promise<GrantWriteState | null> {
    const m = tx ? managerOf(tx) : this.dataSource.manager;
    const rows: GrantRow[] = await m.query(
      `SELECT revoked_at, superseded_at, expires_at FROM grants WHERE organization_id = $1 AND id = $2 FOR SHARE`,
      [organizationId, grantId],
    );
    const row = rows[0];
    return row ? { revokedAt: row.revoked_at, supersededAt: row.superseded_at, expiresAt: new Date(row.expires_at) } : null;
  }

  async mandateInForceForWrite(tx: Transaction | null, organizationId: string, appId: string): Promise<boolean> {
    const rows: unknown[] = await (tx ? managerOf(tx) : this.dataSource.manager).query(
      `SELECT id FROM mandates WHERE organization_id = $1 AND app_id = $2 AND revoked_at IS NULL LIMIT 1 FOR SHARE`,
      [organizationId, appId],
    );
    return rows.length > 0;
  }

  writeGate(
    check: { organizationId: string; grantId: string | null; mandateAppId: string | null; now: Date },
    explain: Pick<StatementGate, 'refusal' | 'failure'>,
  ): StatementGate {
    const values: unknown[] = [check.organizationId];
    const parts: Array<[name: string, sql: string]> = [];
    if (check.grantId !== null) {
      values.push(check.grantId, check.now);
      parts.push(['g', `SELECT 1 FROM org JOIN grants g ON g.organization_id = org.id
             WHERE g.id = $2 AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $3
             FOR SHARE OF g`]);
    }
    if (check.mandateAppId !== null) {
      values.push(check.mandateAppId);
      parts.push(['m', `SELECT 1 FROM org JOIN mandates m ON m.organization_id = org.id
             WHERE m.app_id = $${values.length} AND m.revoked_at IS NULL LIMIT 1 FOR SHARE OF m`]);
    }
    if (parts.length === 0) throw new Error('a write gate needs a grant or a mandate to check');
    // The organization's key lock (which the write's foreign keys take anyway) comes first, so a write
    // that waits there judges the grant and mandate afterwards, on their latest committed state.
    const sql = `WITH org AS (${OrganizationsSql.keyShareLock('$1')}),
            ${parts.map(([name, part]) => `${name} AS (${part})`).join(',\n            ')}
            SELECT 1 FROM ${parts.map(([name]) => name).join(', ')}`;
    return { sql, values, ...explain };
  }
}

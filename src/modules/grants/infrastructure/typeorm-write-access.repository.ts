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

// The organization's key lock (which the write's foreign keys take anyway) comes first, so a write
// that waits there judges the grant afterwards, on its latest committed state.
const GRANT_GATE_SQL = `WITH org AS (${OrganizationsSql.keyShareLock('$1')})
            SELECT 1 FROM org JOIN grants g ON g.organization_id = org.id
             WHERE g.id = $2 AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $3
             FOR SHARE OF g`;

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

  grantGate(organizationId: string, grantId: string, now: Date, refusal: () => Promise<Error>): StatementGate {
    return { sql: GRANT_GATE_SQL, values: [organizationId, grantId, now], refusal };
  }
}

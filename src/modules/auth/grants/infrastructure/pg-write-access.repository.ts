import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf } from '../../../../shared/database/transactions';
import { bind, join, raw, sql, type SqlFragment } from '../../../../shared/database/sql-template';
import type { StatementGate } from '../../../../shared/domain/row-insert';
import type { Transaction } from '../../../../shared/domain/transaction';
import { AppsSql } from '../../apps/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { SandboxTokenSql } from '../../access';
import { type GrantWriteState, WriteAccessRepository, type WriteCheck } from '../domain/write-access.repository';

interface GrantRow {
  revoked_at: Date | null;
  superseded_at: Date | null;
  expires_at: Date;
}

@Injectable()
export class PgWriteAccessRepository extends WriteAccessRepository {
  constructor(
    private readonly dataSource: DataSource,
    /** the sandbox generation's parts (access's port, bound by sandbox) */
    private readonly generations: SandboxTokenSql,
  ) {
    super();
  }

  async grantForWrite(tx: Transaction | null, organizationId: string, grantId: string): Promise<GrantWriteState | null> {
    const m = tx ? managerOf(tx) : this.dataSource.manager;
    const rows: GrantRow[] = await m.query(`SELECT revoked_at, superseded_at, expires_at FROM grants WHERE organization_id = $1 AND id = $2 FOR SHARE`, [
      organizationId,
      grantId,
    ]);
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

  async revisionStillApproved(appId: string, revisionId: string | null): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(AppsSql.approvedRevisionIs, [appId, revisionId])).length > 0;
  }

  async generationStillCurrent(generationId: string): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(this.generations.generationIsCurrent, [generationId])).length > 0;
  }

  /**
   * Each part judges its row on the statement's snapshot and then locks it FOR SHARE, and only after
   * `after` (StatementGate.sql): a revocation, approval or new generation committed while the statement
   * waited before that (e.g. on the voucher counter) is seen on the row's latest version, which
   * READ COMMITTED re-checks when it locks a row updated since the snapshot; one that comes later waits
   * only for the rest of this statement, never for the lock waits before it (CONTRACT §8).
   */
  writeGate(check: WriteCheck, explain: Pick<StatementGate, 'refusal' | 'failure'>): StatementGate {
    const parts = (after: SqlFragment): Array<[name: string, part: SqlFragment]> => {
      const gate: Array<[name: string, part: SqlFragment]> = [];
      if (check.generationId !== null) gate.push(['s', this.generations.lockCurrentGeneration(sql`${check.generationId}::uuid`, after)]);
      if (check.grantId !== null) {
        gate.push([
          'g',
          sql`SELECT 1 FROM org JOIN grants g ON g.organization_id = org.id
             WHERE g.id = ${check.grantId} AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > ${check.now}
               AND ${after}
             FOR SHARE OF g`,
        ]);
      }
      if (check.revision !== null) {
        gate.push(['r', AppsSql.lockApprovedRevision(sql`${check.revision.appId}::uuid`, sql`${check.revision.revisionId}::uuid`, after)]);
      }
      if (check.mandateAppId !== null) {
        gate.push([
          'm',
          sql`SELECT 1 FROM org JOIN mandates m ON m.organization_id = org.id
             WHERE m.app_id = ${check.mandateAppId} AND m.revoked_at IS NULL AND ${after} LIMIT 1 FOR SHARE OF m`,
        ]);
      }
      return gate;
    };
    if (parts(raw('TRUE')).length === 0) throw new Error('a write gate needs something to check');
    return {
      // The organization's key lock (which the write's foreign keys take anyway, and which a revocation
      // never waits for) comes first.
      sql: (after) => {
        const gate = parts(after);
        return sql`WITH org AS (${OrganizationsSql.keyShareLock(bind(check.organizationId))}),
            ${join(
              gate.map(([name, part]) => sql`${raw(name)} AS (${part})`),
              ',\n            ',
            )}
            SELECT 1 FROM ${raw(gate.map(([name]) => name).join(', '))}`;
      },
      ...explain,
    };
  }
}

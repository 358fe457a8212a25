import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StatementGate } from '../../../shared/domain/row-insert';
import { Clock } from '../../../shared/domain/clock';
import { GrantExpiredError, GrantRevokedError, MandateRequiredError } from '../../access';
import { OrganizationsSql } from '../../organizations/sql';
import type { CallerContext } from '../../../shared/domain/caller-context';

/**
 * CONTRACT §8 "a revocation wins over writes in flight": a write re-checks its grant and, for final
 * posting, the posting mandate inside its own transaction, with FOR SHARE. A revocation (or
 * supersession) that committed before the check makes the write fail with the code of the first
 * failing check; one that comes later waits for the write's commit. Either way, no write commits after
 * the revocation that would have stopped it.
 */
@Injectable()
export class WriteAccessService {
  constructor(
    private readonly clock: Clock,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The same grant check for a write made of one statement (OneStatementWrite): the statement locks
   * the grant FOR SHARE while it writes, and writes nothing when the grant no longer allows it; the
   * refusal then names the first failing check. Null where there is no grant to re-check (sandbox).
   */
  gateFor(caller: CallerContext): StatementGate | null {
    if (!caller.grantId) return null;
    return {
      // The organization's key lock (which the write's foreign keys take anyway) comes first, so a
      // write that waits there judges the grant afterwards, on its latest committed state.
      sql: `WITH org AS (${OrganizationsSql.keyShareLock('$1')})
            SELECT 1 FROM org JOIN grants g ON g.organization_id = org.id
             WHERE g.id = $2 AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $3
             FOR SHARE OF g`,
      values: [caller.organizationId, caller.grantId, this.clock.now()],
      refusal: async () => {
        try {
          await this.assertStillAllowed(this.dataSource.manager, caller, { mandate: false });
        } catch (err) {
          return err as Error;
        }
        // allowed again by the time it was explained: still, this write did not run
        return new GrantRevokedError();
      },
    };
  }

  async assertStillAllowed(m: EntityManager, caller: CallerContext, options: { mandate: boolean }): Promise<void> {
    if (caller.grantId) {
      const rows: Array<{ revoked_at: Date | null; superseded_at: Date | null; expires_at: Date }> = await m.query(
        `SELECT revoked_at, superseded_at, expires_at FROM grants WHERE organization_id = $1 AND id = $2 FOR SHARE`,
        [caller.organizationId, caller.grantId],
      );
      const grant = rows[0];
      if (!grant || grant.revoked_at || grant.superseded_at) throw new GrantRevokedError();
      if (new Date(grant.expires_at).getTime() <= this.clock.now().getTime()) throw new GrantExpiredError();
    }
    if (options.mandate) {
      const rows: unknown[] = await m.query(
        `SELECT id FROM mandates WHERE organization_id = $1 AND app_id = $2 AND revoked_at IS NULL LIMIT 1 FOR SHARE`,
        [caller.organizationId, caller.appId],
      );
      if (rows.length === 0) throw new MandateRequiredError();
    }
  }
}

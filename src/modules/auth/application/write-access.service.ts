import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StatementGate } from '../../../shared/domain/row-insert';
import { Clock } from '../../../shared/domain/clock';
import { GrantExpiredError, GrantRevokedError, MandateRequiredError } from '../domain/access.errors';
import type { CallerContext } from '../domain/caller-context';

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
  gateFor(caller: CallerContext, options: { mandate: boolean } = { mandate: false }): StatementGate | null {
    if (!caller.grantId && !options.mandate) return null;
    const checks: string[] = [];
    const values: unknown[] = [caller.organizationId];
    if (caller.grantId) {
      values.push(caller.grantId, this.clock.now());
      checks.push(`g AS (SELECT 1 FROM org JOIN grants g ON g.organization_id = org.id
             WHERE g.id = $2 AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $3
             FOR SHARE OF g)`);
    }
    if (options.mandate) {
      values.push(caller.appId);
      checks.push(`m AS (SELECT 1 FROM org JOIN mandates m ON m.organization_id = org.id
             WHERE m.app_id = $${values.length} AND m.revoked_at IS NULL LIMIT 1 FOR SHARE OF m)`);
    }
    return {
      // The organization's key lock (which the write's foreign keys take anyway) comes first, so a
      // write that waits there judges the grant afterwards, on its latest committed state.
      sql: `WITH org AS (SELECT id FROM organizations WHERE id = $1 FOR KEY SHARE),
            ${checks.join(',\n            ')}
            SELECT 1 FROM ${[caller.grantId ? 'g' : null, options.mandate ? 'm' : null].filter(Boolean).join(', ')}`,
      values,
      failure: () => this.failureOf(caller, options),
      refusal: async () =>
        // allowed again by the time it was explained: still, this write did not run
        (await this.failureOf(caller, options)) ?? (options.mandate && !caller.grantId ? new MandateRequiredError() : new GrantRevokedError()),
    };
  }

  private async failureOf(caller: CallerContext, options: { mandate: boolean }): Promise<Error | null> {
    try {
      await this.assertStillAllowed(this.dataSource.manager, caller, options);
      return null;
    } catch (err) {
      return err as Error;
    }
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

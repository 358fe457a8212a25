import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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
  constructor(private readonly clock: Clock) {}

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

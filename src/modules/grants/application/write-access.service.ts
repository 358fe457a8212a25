import { Injectable } from '@nestjs/common';
import type { StatementGate } from '../../../shared/domain/row-insert';
import { Clock } from '../../../shared/domain/clock';
import type { Transaction } from '../../../shared/domain/transaction';
import { GrantExpiredError, GrantRevokedError, MandateRequiredError } from '../../access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { WriteAccessRepository } from '../domain/write-access.repository';

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
    private readonly access: WriteAccessRepository,
  ) {}

  /**
   * The same grant check for a write made of one statement (OneStatementWrite): the statement locks
   * the grant FOR SHARE while it writes, and writes nothing when the grant no longer allows it; the
   * refusal then names the first failing check. Null where there is no grant to re-check (sandbox).
   */
  gateFor(caller: CallerContext): StatementGate | null {
    if (!caller.grantId) return null;
    return this.access.grantGate(caller.organizationId, caller.grantId, this.clock.now(), async () => {
      try {
        await this.assertStillAllowed(null, caller, { mandate: false });
      } catch (err) {
        return err as Error;
      }
      // allowed again by the time it was explained: still, this write did not run
      return new GrantRevokedError();
    });
  }

  /** `tx` null: the check outside any transaction (a gate's refusal, explained after the statement). */
  async assertStillAllowed(tx: Transaction | null, caller: CallerContext, options: { mandate: boolean }): Promise<void> {
    if (caller.grantId) {
      const grant = await this.access.grantForWrite(tx, caller.organizationId, caller.grantId);
      if (!grant || grant.revokedAt || grant.supersededAt) throw new GrantRevokedError();
      if (grant.expiresAt.getTime() <= this.clock.now().getTime()) throw new GrantExpiredError();
    }
    if (options.mandate && !(await this.access.mandateInForceForWrite(tx, caller.organizationId, caller.appId))) {
      throw new MandateRequiredError();
    }
  }
}

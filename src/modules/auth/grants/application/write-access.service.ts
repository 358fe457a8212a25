import { Injectable } from '@nestjs/common';
import type { StatementGate } from '../../../../shared/domain/row-insert';
import { Clock } from '../../../../shared/domain/clock';
import type { Transaction } from '../../../../shared/domain/transaction';
import { AppRevisionChangedError, GrantExpiredError, GrantRevokedError, InvalidTokenError, MandateRequiredError } from '../../access';
import type { CallerContext } from '../../../../shared/domain/caller-context';
import type { WriteAccessGate } from '../../../idempotency';
import { WriteAccessRepository } from '../domain/write-access.repository';

/**
 * CONTRACT §8 "a revocation wins over writes in flight": a write re-checks its sandbox generation, its
 * grant, its token's app revision and, for final posting, the posting mandate inside its own
 * statement, and locks those rows FOR SHARE only after every other lock wait of the statement (the
 * voucher counter's): a revocation (or supersession, approval, new generation) that committed before
 * the write took those locks makes it fail with the code of the first failing check; one that comes
 * later waits only for the rest of the write's statement. So no write commits after the revocation
 * that would have stopped it, and a revocation never waits for the lock waits of the writes it stops.
 */
@Injectable()
export class WriteAccessService implements WriteAccessGate {
  constructor(
    private readonly clock: Clock,
    private readonly access: WriteAccessRepository,
  ) {}

  /**
   * The checks of a write made of one statement (OneStatementWrite): the statement writes nothing
   * when they no longer allow it; the refusal then names the first failing check.
   */
  gateFor(caller: CallerContext, options: { mandate: boolean } = { mandate: false }): StatementGate | null {
    const failure = () => this.failureOf(caller, options);
    const check = {
      organizationId: caller.organizationId,
      grantId: caller.grantId,
      mandateAppId: options.mandate ? caller.appId : null,
      // a production token's revision, null when issued before any approval (the demo company, CONTRACT §15)
      revision: caller.grantId ? { appId: caller.appId, revisionId: caller.appRevisionId ?? null } : null,
      generationId: caller.generationId,
      now: this.clock.now(),
    };
    if (!check.grantId && !check.mandateAppId && !check.generationId) return null;
    return this.access.writeGate(check, {
      failure,
      refusal: async () =>
        // allowed again by the time it was explained: still, this write did not run
        (await failure()) ?? (options.mandate && !caller.grantId ? new MandateRequiredError() : new GrantRevokedError()),
    });
  }

  private async failureOf(caller: CallerContext, options: { mandate: boolean }): Promise<Error | null> {
    try {
      await this.assertStillAllowed(null, caller, options);
      return null;
    } catch (err) {
      return err as Error;
    }
  }

  /**
   * `tx` null: the check outside any transaction (a gate's refusal, explained after the statement), in
   * the order of CONTRACT §8: generation (401), grant (403 revoked, expired), revision, mandate.
   */
  async assertStillAllowed(tx: Transaction | null, caller: CallerContext, options: { mandate: boolean }): Promise<void> {
    if (caller.generationId && !(await this.access.generationStillCurrent(caller.generationId))) throw new InvalidTokenError();
    if (caller.grantId) {
      const grant = await this.access.grantForWrite(tx, caller.organizationId, caller.grantId);
      if (!grant || grant.revokedAt || grant.supersededAt) throw new GrantRevokedError();
      if (grant.expiresAt.getTime() <= this.clock.now().getTime()) throw new GrantExpiredError();
      if (!(await this.access.revisionStillApproved(caller.appId, caller.appRevisionId ?? null))) {
        throw new AppRevisionChangedError();
      }
    }
    if (options.mandate && !(await this.access.mandateInForceForWrite(tx, caller.organizationId, caller.appId))) {
      throw new MandateRequiredError();
    }
  }
}

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
   * The same checks for a write made of one statement (OneStatementWrite): the statement locks the
   * grant and, for final posting, the posting mandate FOR SHARE while it writes, and writes nothing
   * when they no longer allow it; the refusal then names the first failing check. Null where there is
   * nothing to re-check (a sandbox write other than a posting).
   */
  gateFor(caller: CallerContext, options: { mandate: boolean } = { mandate: false }): StatementGate | null {
    if (!caller.grantId && !options.mandate) return null;
    const failure = () => this.failureOf(caller, options);
    return this.access.writeGate(
      { organizationId: caller.organizationId, grantId: caller.grantId, mandateAppId: options.mandate ? caller.appId : null, now: this.clock.now() },
      {
        failure,
        refusal: async () =>
          // allowed again by the time it was explained: still, this write did not run
          (await failure()) ?? (options.mandate && !caller.grantId ? new MandateRequiredError() : new GrantRevokedError()),
      },
    );
  }

  private async failureOf(caller: CallerContext, options: { mandate: boolean }): Promise<Error | null> {
    try {
      await this.assertStillAllowed(null, caller, options);
      return null;
    } catch (err) {
      return err as Error;
    }
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

import type { StatementGate } from '../../../shared/domain/row-insert';
import type { Transaction } from '../../../shared/domain/transaction';

/** A grant as the write re-check sees it (CONTRACT §8). */
export interface GrantWriteState {
  revokedAt: Date | null;
  supersededAt: Date | null;
  expiresAt: Date;
}

/**
 * Port: the grant and mandate state a write re-checks inside its own transaction, locked FOR SHARE so
 * that a revocation committing later waits for the write (CONTRACT §8 "a revocation wins").
 */
export abstract class WriteAccessRepository {
  /** The grant, locked FOR SHARE in `tx` (null: read outside any transaction, unlocked); null if none. */
  abstract grantForWrite(tx: Transaction | null, organizationId: string, grantId: string): Promise<GrantWriteState | null>;

  /** True when the app holds a mandate in force for the organization, locked FOR SHARE in `tx` (as above). */
  abstract mandateInForceForWrite(tx: Transaction | null, organizationId: string, appId: string): Promise<boolean>;

  /**
   * The same checks as the gate of a one-statement write: it returns a row while the grant (when
   * given) is neither revoked, superseded nor expired at `now` and the app (when given) holds a
   * mandate in force, and locks both FOR SHARE; `explain` says why otherwise.
   */
  abstract writeGate(
    check: { organizationId: string; grantId: string | null; mandateAppId: string | null; now: Date },
    explain: Pick<StatementGate, 'refusal' | 'failure'>,
  ): StatementGate;
}

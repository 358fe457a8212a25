import type { StatementGate } from '../../../../shared/domain/row-insert';
import type { Transaction } from '../../../../shared/domain/transaction';

/** A grant as the write re-check sees it (CONTRACT §8). */
export interface GrantWriteState {
  revokedAt: Date | null;
  supersededAt: Date | null;
  expiresAt: Date;
}

/** What a write re-checks when it commits (CONTRACT §8): each part only when given. */
export interface WriteCheck {
  organizationId: string;
  grantId: string | null;
  /** the app that must hold a posting mandate in force */
  mandateAppId: string | null;
  /** production: the app and the revision that must still be its approved one */
  revision: { appId: string; revisionId: string | null } | null;
  /** sandbox: the generation that must still be its project's current one */
  generationId: string | null;
  now: Date;
}

/**
 * Port: the grant, mandate, app revision and sandbox generation state a write re-checks inside its own
 * statement (CONTRACT §8 "a revocation wins over writes in flight").
 */
export abstract class WriteAccessRepository {
  /** The grant, locked FOR SHARE in `tx` (null: read outside any transaction, unlocked); null if none. */
  abstract grantForWrite(tx: Transaction | null, organizationId: string, grantId: string): Promise<GrantWriteState | null>;

  /** True when the app holds a mandate in force for the organization, locked FOR SHARE in `tx` (as above). */
  abstract mandateInForceForWrite(tx: Transaction | null, organizationId: string, appId: string): Promise<boolean>;

  /** True while `revisionId` is the app's approved revision (read now, unlocked). */
  abstract revisionStillApproved(appId: string, revisionId: string | null): Promise<boolean>;

  /** True while the sandbox generation is its project's current one (read now, unlocked). */
  abstract generationStillCurrent(generationId: string): Promise<boolean>;

  /**
   * The same checks as the gate of a one-statement write: it returns a row while every given part
   * allows the write, and locks the rows it judged FOR SHARE — but only once the condition `{after}`
   * (left in the SQL for the composing statement, e.g. "the voucher counter is locked") has been
   * evaluated, so a write never holds those rows while it waits on another lock; `explain` says why
   * not otherwise.
   */
  abstract writeGate(check: WriteCheck, explain: Pick<StatementGate, 'refusal' | 'failure'>): StatementGate;
}

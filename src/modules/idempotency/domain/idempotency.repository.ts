import type { ClaimInsert } from '../../../shared/domain/row-insert';
import type { Transaction } from '../../../shared/domain/transaction';
import type { Environment } from '../../../shared/domain/caller-context';

/** CONTRACT §6: a key is scoped to (environment, organization, app). */
export interface IdempotencyScope {
  environment: Environment;
  organizationId: string;
  appId: string;
  key: string;
}

export interface IdempotencyRecord {
  operation: string;
  fingerprint: string;
  grantId: string | null;
  /** the first execution's response body */
  response: Record<string, unknown>;
}

/** Port: idempotency records, written only inside the write's own transaction. */
export abstract class IdempotencyRepository {
  /**
   * Inserts the record for `scope` unless one exists. If an uncommitted record of a concurrent
   * transaction holds the key, PostgreSQL makes this wait until that transaction ends (bounded by the
   * transaction's lock_timeout; that wait running out is a LockTimeoutError with `onClaim`). Returns null when this call claimed the key, else the existing
   * committed record.
   */
  abstract claim(
    tx: Transaction,
    scope: IdempotencyScope,
    record: Omit<IdempotencyRecord, 'response'> & { response: Record<string, unknown> | null },
  ): Promise<IdempotencyRecord | null>;

  /** The record as the claiming row of a one-statement write (OneStatementWrite), its response known. */
  abstract claimRow(scope: IdempotencyScope, record: IdempotencyRecord): ClaimInsert;

  /** The committed record under the key, or null. */
  abstract find(scope: IdempotencyScope): Promise<IdempotencyRecord | null>;

  /** Stores the response of the claimed key (same transaction). */
  abstract complete(tx: Transaction, scope: IdempotencyScope, response: Record<string, unknown>): Promise<void>;

  /** Deletes up to `limit` records created before `cutoff`; returns how many. Safe on many instances. */
  abstract purgeCreatedBefore(cutoff: Date, limit: number): Promise<number>;
}

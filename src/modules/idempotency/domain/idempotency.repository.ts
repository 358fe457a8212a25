import type { ClaimInsert } from '../../../shared/domain/row-insert';
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

/** Port: idempotency records, written only as the claiming row of the write's own statement. */
export abstract class IdempotencyRepository {
  /** The record as the claiming row of a one-statement write (OneStatementWrite), its response known. */
  abstract claimRow(scope: IdempotencyScope, record: IdempotencyRecord): ClaimInsert;

  /** The committed record under the key, or null. */
  abstract find(scope: IdempotencyScope): Promise<IdempotencyRecord | null>;

  /** Deletes up to `limit` records created before `cutoff`; returns how many. Safe on many instances. */
  abstract purgeCreatedBefore(cutoff: Date, limit: number): Promise<number>;
}

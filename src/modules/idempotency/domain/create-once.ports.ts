import type { CallerContext } from '../../../shared/domain/caller-context';
import type { RowInsert, StatementGate } from '../../../shared/domain/row-insert';

/** The receipt of a write that completed under its key (CONTRACT §7), as create-once hands it on. */
export interface CompletedOperation {
  operationId: string;
  /** the receipt's kind; also the operation that the key's fingerprint names (CONTRACT §6) */
  kind: string;
  resourceType: string;
  resourceId: string;
  completedAt: Date;
}

/**
 * Port of create-once, bound by the receipts module: the receipt of a completed write and its
 * `operation.completed` event, as rows of the write's own statement (CONTRACT §6, §9).
 */
export abstract class OperationReceiptRows {
  abstract rowsFor(caller: CallerContext, receipt: CompletedOperation): RowInsert[];
}

/**
 * Port of create-once, bound by the grants module: the write-time re-check of the caller's access
 * (and, with `mandate`, the posting mandate), checked and locked by the write's own statement
 * (CONTRACT §8: a revocation wins); null when nothing applies.
 */
export abstract class WriteAccessGate {
  abstract gateFor(caller: CallerContext, options: { mandate: boolean }): StatementGate | null;
}

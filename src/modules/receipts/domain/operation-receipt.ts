import type { Environment } from '../../../shared/domain/caller-context';

/** Kinds of operations that store a receipt (CONTRACT §7). Prepare stores none (seed 4.1). */
export const RECEIPT_KINDS = ['product.create', 'journal.post', 'attachment.add', 'journal.reverse', 'journal.batch'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];
/** What a receipt's `resource.type` names. */
export const RESOURCE_TYPES = ['product', 'journal_entry', 'attachment', 'journal_batch'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The receipt as `GET /operations/{id}` returns it and as `operation.completed` carries it (CONTRACT §7, §9). */
export interface OperationReceiptView {
  operation_id: string;
  kind: ReceiptKind;
  status: 'completed';
  resource: { type: ResourceType; id: string };
  completed_at: string;
  environment: Environment;
}

export interface NewReceipt {
  operationId: string;
  kind: ReceiptKind;
  resourceType: ResourceType;
  resourceId: string;
  completedAt: Date;
}

/** ISO 8601 UTC with millisecond precision. */
export const isoMillis = (d: Date): string => d.toISOString();

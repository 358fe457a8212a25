import type { Environment } from '../../../shared/domain/caller-context';

/**
 * Kinds of operations that store a receipt (CONTRACT §7; prepare stores none, seed 4.1) and the
 * resource types they name: each writing module declares its own in its facts.ts (`receipts`), and
 * the kernel keeps these lists (src/shared/module-facts.ts).
 */
export { RECEIPT_KINDS, RESOURCE_TYPES } from '../../../shared/module-facts';
export type ReceiptKind = string;
export type ResourceType = string;

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

import { environment, object, type Schema, uuid } from '../../../shared/http/openapi/common';
import { RECEIPT_KINDS, RESOURCE_TYPES } from '../domain/operation-receipt';

/**
 * The receipt in the partner document (CONTRACT §7); `operation.completed` carries it too (§9). The enums are
 * the kernel's lists of every module's receipt kinds and resource types, complete when the document is built.
 */
export const RECEIPT_SCHEMAS: Record<string, Schema> = {
  OperationReceipt: object(
    {
      operation_id: uuid,
      kind: { type: 'string', enum: RECEIPT_KINDS as string[] },
      status: { const: 'completed' },
      resource: object({ type: { type: 'string', enum: RESOURCE_TYPES as string[] }, id: uuid }),
      completed_at: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, millisecond precision' },
      environment,
    },
    undefined,
    { description: 'The receipt of a completed write (CONTRACT §7).' },
  ),
};

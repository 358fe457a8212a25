import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/domain/errors';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { CallerContext } from '../../../shared/domain/caller-context';
import type { OperationReceiptRows } from '../../idempotency';
import type { Transaction } from '../../../shared/domain/transaction';
import { isoMillis, type NewReceipt, type OperationReceiptView } from '../domain/operation-receipt';
import { ReceiptRepository } from '../domain/receipt.repository';

const scopeOf = (c: CallerContext) => ({ organizationId: c.organizationId, appId: c.appId, environment: c.environment });

/** The receipt and its `operation.completed` event, whose body is fixed now: every attempt sends these bytes. */
function viewAndEvent(caller: CallerContext, receipt: NewReceipt): { view: OperationReceiptView; event: { id: string; body: string } } {
  const view: OperationReceiptView = {
    operation_id: receipt.operationId,
    kind: receipt.kind,
    status: 'completed',
    resource: { type: receipt.resourceType, id: receipt.resourceId },
    completed_at: isoMillis(receipt.completedAt),
    environment: caller.environment,
  };
  const body = JSON.stringify({ type: 'operation.completed', timestamp: view.completed_at, data: view });
  return { view, event: { id: randomUUID(), body } };
}

@Injectable()
export class ReceiptsService implements OperationReceiptRows {
  constructor(private readonly receipts: ReceiptRepository) {}

  /**
   * The receipt of a completed write and its `operation.completed` event, as rows of the write's own
   * statement (CONTRACT §6, §9): the event body is fixed now, so every delivery attempt sends the
   * identical bytes.
   */
  rowsFor(caller: CallerContext, receipt: NewReceipt): RowInsert[] {
    const { view, event } = viewAndEvent(caller, receipt);
    return this.receipts.rowsFor(scopeOf(caller), view, event);
  }

  /** CONTRACT §18 Connected apps: when each app last completed an operation in the organization's production books. */
  lastOperations(tx: Transaction, organizationId: string, appIds: string[]): Promise<Map<string, Date>> {
    return this.receipts.lastOperations(tx, organizationId, appIds);
  }

  /** CONTRACT §7: anything the caller may not see is 404, indistinguishable from a missing id. */
  async find(caller: CallerContext, operationId: string): Promise<OperationReceiptView> {
    const found = await this.receipts.find(scopeOf(caller), operationId);
    if (!found) throw new NotFoundError('operation');
    return found;
  }
}

import type { Transaction } from '../../../shared/domain/transaction';
import type { OperationReceiptView } from './operation-receipt';

/** Port: operation receipts and their outbox events. */
export abstract class ReceiptRepository {
  /** Stores the receipt and its `operation.completed` outbox row, in the caller's transaction. */
  abstract insert(
    tx: Transaction,
    scope: { organizationId: string; appId: string; environment: 'sandbox' | 'production' },
    receipt: OperationReceiptView,
    event: { id: string; body: string },
  ): Promise<void>;

  /** The receipt of (organization, app, environment) with this id, or null. */
  abstract find(
    scope: { organizationId: string; appId: string; environment: 'sandbox' | 'production' },
    operationId: string,
  ): Promise<OperationReceiptView | null>;
}

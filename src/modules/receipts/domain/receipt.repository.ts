import type { Transaction } from '../../../shared/domain/transaction';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { OperationReceiptView } from './operation-receipt';
import type { Environment } from '../../../shared/domain/caller-context';

/** Port: operation receipts and their outbox events. */
export abstract class ReceiptRepository {
  /** The receipt's row and its outbox row, for a write that stores them in one statement. */
  abstract rowsFor(
    scope: { organizationId: string; appId: string; environment: Environment },
    receipt: OperationReceiptView,
    event: { id: string; body: string },
  ): RowInsert[];

  /** The receipt of (organization, app, environment) with this id, or null. */
  abstract find(scope: { organizationId: string; appId: string; environment: Environment }, operationId: string): Promise<OperationReceiptView | null>;
  /** CONTRACT §18 "when it last called": the newest completed operation of each app in the organization's production books. */
  abstract lastOperations(tx: Transaction, organizationId: string, appIds: string[]): Promise<Map<string, Date>>;
}

import { Module } from '@nestjs/common';
import { OperationReceiptRows } from '../idempotency';
import { OperationsController } from './api/operations.controller';
import { ReceiptsService } from './application/receipts.service';
import { ReceiptRepository } from './domain/receipt.repository';
import { PgReceiptRepository } from './infrastructure/pg-receipt.repository';

/** Operation receipts: written with each exactly-once write (create-once's receipt rows: OperationReceiptRows). */
@Module({
  providers: [ReceiptsService, { provide: ReceiptRepository, useClass: PgReceiptRepository }, { provide: OperationReceiptRows, useExisting: ReceiptsService }],
  exports: [ReceiptsService, OperationReceiptRows],
})
export class ReceiptsModule {}

/** The receipt lookup `GET /operations/{id}` on the partner listener. */
@Module({ imports: [ReceiptsModule], controllers: [OperationsController] })
export class ReceiptsApiModule {}

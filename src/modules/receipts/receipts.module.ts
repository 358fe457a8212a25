import { Module } from '@nestjs/common';
import { OperationsController } from './api/operations.controller';
import { ReceiptsService } from './application/receipts.service';
import { ReceiptRepository } from './domain/receipt.repository';
import { TypeOrmReceiptRepository } from './infrastructure/typeorm-receipt.repository';

/** Operation receipts: written with each final write (used by products and journal). */
@Module({
  providers: [ReceiptsService, { provide: ReceiptRepository, useClass: TypeOrmReceiptRepository }],
  exports: [ReceiptsService],
})
export class ReceiptsModule {}

/** The receipt lookup `GET /operations/{id}` on the partner listener. */
@Module({ imports: [ReceiptsModule], controllers: [OperationsController] })
export class ReceiptsApiModule {}

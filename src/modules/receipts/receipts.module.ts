import { Module } from '@nestjs/common';
import { OperationsController } from './api/operations.controller';
import { ReceiptsService } from './application/receipts.service';
import { ReceiptRepository } from './domain/receipt.repository';
import { TypeOrmReceiptRepository } from './infrastructure/typeorm-receipt.repository';

/** Operation receipts: written with each final write, looked up by `GET /operations/{id}`. */
@Module({
  controllers: [OperationsController],
  providers: [ReceiptsService, { provide: ReceiptRepository, useClass: TypeOrmReceiptRepository }],
  exports: [ReceiptsService],
})
export class ReceiptsModule {}

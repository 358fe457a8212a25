import { Module } from '@nestjs/common';
import { IdempotencyKeyGuard } from './api/idempotency-key.guard';
import { IdempotencyService } from './application/idempotency.service';
import { IdempotencyRepository } from './domain/idempotency.repository';
import { TypeOrmIdempotencyRepository } from './infrastructure/typeorm-idempotency.repository';

/** Keys, fingerprints and replay records — used by products and final posting. */
@Module({
  providers: [IdempotencyService, IdempotencyKeyGuard, { provide: IdempotencyRepository, useClass: TypeOrmIdempotencyRepository }],
  exports: [IdempotencyService, IdempotencyKeyGuard],
})
export class IdempotencyModule {}

import { Module } from '@nestjs/common';
import { IdempotencyKeyGuard } from './api/idempotency-key.guard';
import { IdempotencyPurgeScheduler } from './application/idempotency-purge.scheduler';
import { IdempotencyService } from './application/idempotency.service';
import { IdempotencyRepository } from './domain/idempotency.repository';
import { PgIdempotencyRepository } from './infrastructure/pg-idempotency.repository';

/**
 * Keys, fingerprints and replay records. A module that writes exactly once lists `CreateOnceService`
 * among its own providers, beside this module, ReceiptsModule and GrantsModule (which bind its ports).
 */
@Module({
  providers: [IdempotencyService, IdempotencyKeyGuard, { provide: IdempotencyRepository, useClass: PgIdempotencyRepository }],
  exports: [IdempotencyService, IdempotencyKeyGuard],
})
export class IdempotencyModule {}

/** The periodic purge of expired records, run by the partner listener of every instance. */
@Module({ imports: [IdempotencyModule], providers: [IdempotencyPurgeScheduler] })
export class IdempotencyPurgeModule {}

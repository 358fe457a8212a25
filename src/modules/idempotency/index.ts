// The idempotency module's public surface: other modules and the composition root import only this file.
export { IdempotencyModule, IdempotencyPurgeModule } from './idempotency.module';
export { Idempotent, IdempotencyKey, IdempotencyKeyGuard } from './api/idempotency-key.guard';
export { idempotencyRecordPrefetch } from './api/idempotency-record.prefetch';
export { IdempotencyService } from './application/idempotency.service';
export { IDEMPOTENCY_FACTS } from './facts';

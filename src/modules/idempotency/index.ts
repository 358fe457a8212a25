// The idempotency module's public surface: other modules and the composition root import only this file.
export { IdempotencyModule, IdempotencyPurgeModule } from './idempotency.module';
export { Idempotent, IdempotencyKey, IdempotencyKeyGuard } from './api/idempotency-key.guard';
export { idempotencyRecordPrefetch } from './api/idempotency-record.prefetch';
export { IdempotencyService } from './application/idempotency.service';
export { type CreatedBody, CreateOnceService, type NewResource, type NumberedCreation, type OnceOperation } from './application/create-once.service';
export { type CompletedOperation, OperationReceiptRows, WriteAccessGate } from './domain/create-once.ports';
export { IDEMPOTENCY_FACTS } from './facts';

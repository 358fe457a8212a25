import { declareModuleFacts } from '../../shared/module-facts';
import { IdempotencyPurge } from './sql';

/** What the idempotency module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const IDEMPOTENCY_FACTS = declareModuleFacts({
  module: 'idempotency',
  purge: { parts: IdempotencyPurge, refersTo: ['organizations'] },
  tables: ['idempotency_records'],
});

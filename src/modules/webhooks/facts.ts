import { declareModuleFacts } from '../../shared/module-facts';
import { WebhooksPurge } from './sql';

/** What the webhooks module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const WEBHOOKS_FACTS = declareModuleFacts({
  module: 'webhooks',
  openapi: { tags: { events: 'The events feed' } },
  purge: { parts: WebhooksPurge, refersTo: ['organizations', 'apps'] },
  tables: ['webhook_outbox', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'],
});

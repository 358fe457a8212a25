import { declareModuleFacts } from '../../../shared/module-facts';
import { GrantsPurge } from './sql';

/** What the grants module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const GRANTS_FACTS = declareModuleFacts({
  module: 'grants',
  openapi: { tags: { grant: "The token's grant" } },
  purge: { parts: GrantsPurge, refersTo: ['organizations', 'apps'] },
  tables: ['grants', 'grant_accounts', 'mandates'],
});

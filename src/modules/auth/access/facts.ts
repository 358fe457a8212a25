import { declareModuleFacts } from '../../../shared/module-facts';
import { AccessPurge } from './sql';

/** What the access module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const ACCESS_FACTS = declareModuleFacts({
  module: 'access',
  purge: { parts: AccessPurge, refersTo: ['organizations', 'apps', 'grants', 'sandbox'] },
  tables: ['access_tokens'],
});

import { declareModuleFacts } from '../../../shared/module-facts';
import { ConsentPurge } from './sql';

/** What the consent module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const CONSENT_FACTS = declareModuleFacts({
  module: 'consent',
  purge: { parts: ConsentPurge, refersTo: ['organizations', 'apps', 'grants'] },
  tables: ['oauth_clients', 'authorization_codes'],
});

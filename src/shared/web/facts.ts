import { declareModuleFacts } from '../module-facts';

/** What shared/web (the page kernel) declares to the rest of the service: src/shared/module-facts.ts. */
export const WEB_FACTS = declareModuleFacts({
  module: 'shared/web',
  tables: ['web_sessions', 'sign_in_lockouts', 'sign_in_failures'],
});

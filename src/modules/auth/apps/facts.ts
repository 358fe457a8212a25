import { declareModuleFacts } from '../../../shared/module-facts';
import { AppsPurge } from './sql';

/** What the apps module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const APPS_FACTS = declareModuleFacts({
  module: 'apps',
  purge: { parts: AppsPurge, refersTo: [] },
  tables: ['apps', 'app_revisions'],
});

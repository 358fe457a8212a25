import { declareModuleFacts } from '../../shared/module-facts';

/** What the developers module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const DEVELOPERS_FACTS = declareModuleFacts({
  module: 'developers',
  tables: ['developers', 'developer_apps', 'request_log', 'developer_signups', 'developer_quota_events'],
});

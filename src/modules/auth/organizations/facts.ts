import { declareModuleFacts } from '../../../shared/module-facts';
import { OrganizationsPurge } from './sql';

/** What the organizations module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const ORGANIZATIONS_FACTS = declareModuleFacts({
  module: 'organizations',
  purge: { parts: OrganizationsPurge, refersTo: [] },
  tables: ['organizations', 'accounts', 'tax_codes', 'users', 'organization_owners', 'second_factor_failures', 'second_factor_lockouts'],
});

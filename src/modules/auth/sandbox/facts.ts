import { declareModuleFacts } from '../../../shared/module-facts';
import { SandboxPurge } from './sql';

/** What the sandbox module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const SANDBOX_FACTS = declareModuleFacts({
  module: 'sandbox',
  purge: { parts: SandboxPurge, refersTo: ['organizations', 'apps'] },
  tables: ['sandbox_projects', 'sandbox_generations'],
});

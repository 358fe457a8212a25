import type { Scope } from '../../../../shared/domain/scopes';

/** CONTRACT §11: each requested scope in words, with its name. */
export const SCOPE_WORDS: Readonly<Record<Scope, { title: string; text: string }>> = {
  'journal:prepare': { title: 'Check journal entries', text: 'Check journal entries against the chosen accounts, without posting anything.' },
  'journal:post': { title: 'Post journal entries', text: 'Post journal entries to the chosen accounts (only with the final-posting mandate below).' },
  'products:create': { title: 'Create products', text: 'Add products to your product list.' },
  'operations:read': { title: 'Read receipts', text: 'Look up the receipts of its own operations.' },
};

import type { Scope } from '../../../../shared/domain/scopes';

/** CONTRACT §11: each requested scope in words, with its name. */
export const SCOPE_WORDS: Readonly<Record<Scope, { title: string; text: string }>> = {
  'journal:prepare': { title: 'Check journal entries', text: 'Check journal entries against the chosen accounts, without posting anything.' },
  'journal:post': { title: 'Post journal entries', text: 'Post journal entries to the chosen accounts (only with the final-posting mandate below).' },
  'products:create': { title: 'Create products', text: 'Add products to your product list.' },
  // CONTRACT §14: the events feed is read under this scope too, so the owner is told
  'operations:read': { title: 'Read receipts and events', text: 'Look up the receipts of its own operations and read the feed of their events.' },
  // CONTRACT §17: what it posted, with the documentation attached to it
  'journal:read': { title: 'Read its journal entries', text: 'Read the journal entries it posted itself and the documentation (bilag) attached to them.' },
};

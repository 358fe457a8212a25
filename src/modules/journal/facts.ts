import { declareModuleFacts, receiptsOf } from '../../shared/module-facts';
import { JOURNAL_BATCH, JOURNAL_POST, JOURNAL_REVERSE } from './domain/journal-operations';
import { JournalPurge } from './sql';

/** What the journal module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const JOURNAL_FACTS = declareModuleFacts({
  module: 'journal',
  scopes: {
    'journal:prepare': {
      consent: {
        en: { title: 'Check journal entries', text: 'check journal entries against the chosen accounts, without posting anything' },
        da: { title: 'Kontrollere posteringer', text: 'kontrollere posteringer mod de valgte konti uden at bogføre noget' },
      },
      openapi: 'Check journals before posting (no writes)',
    },
    'journal:post': {
      consent: {
        en: { title: 'Post journal entries', text: 'post journal entries to the chosen accounts — only if you also tick the mandate box below' },
        da: { title: 'Bogføre posteringer', text: 'bogføre posteringer på de valgte konti — kun hvis du også sætter kryds i fuldmagten nedenfor' },
      },
      openapi: 'Post journals (final; also needs a posting mandate)',
    },
    'journal:read': {
      consent: {
        en: { title: 'Read its journal entries', text: 'read the journal entries it posted and their attachments' },
        da: { title: 'Læse sine posteringer', text: 'læse de posteringer, den har bogført, og deres bilag' },
      },
      openapi: "Read the app's own journal entries and their attachments",
    },
  },
  receipts: receiptsOf(JOURNAL_POST, JOURNAL_REVERSE, JOURNAL_BATCH),
  openapi: { tags: { journal: 'Journal prepare and final posting' }, pathParameters: { entry_id: 'The id of a journal entry the app posted (a uuid).' } },
  purge: { parts: JournalPurge, refersTo: ['organizations'] },
  tables: ['periods', 'voucher_counters', 'journal_entries', 'journal_lines'],
});

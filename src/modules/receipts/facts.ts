import { declareModuleFacts } from '../../shared/module-facts';
import { ReceiptsPurge } from './sql';

/** What the receipts module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const RECEIPTS_FACTS = declareModuleFacts({
  module: 'receipts',
  scopes: {
    'operations:read': {
      consent: {
        en: { title: 'Read its receipts and events', text: 'look up the receipts of what it did and read the feed of their events' },
        da: { title: 'Læse sine bekræftelser og hændelser', text: 'se bekræftelserne på det, den selv har udført, og læse listen over hændelserne' },
      },
      openapi: 'Read operation receipts and the events feed',
    },
  },
  openapi: { tags: { operations: 'Operation receipts' }, pathParameters: { operation_id: 'The operation id of a write (a uuid).' } },
  purge: { parts: ReceiptsPurge, refersTo: ['organizations'] },
  tables: ['operation_receipts'],
});

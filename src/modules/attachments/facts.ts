import { declareModuleFacts, receiptsOf } from '../../shared/module-facts';
import { ATTACHMENT_ADD } from './domain/attachment';
import { AttachmentsPurge } from './sql';

/** What the attachments module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const ATTACHMENTS_FACTS = declareModuleFacts({
  module: 'attachments',
  receipts: receiptsOf(ATTACHMENT_ADD),
  openapi: { pathParameters: { attachment_id: 'The id of an attachment of that entry (a uuid).' } },
  purge: { parts: AttachmentsPurge, refersTo: ['journal', 'organizations'] },
  tables: ['attachments', 'attachment_contents', 'attachment_counters', 'attachment_storage'],
});

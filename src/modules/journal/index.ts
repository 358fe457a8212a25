// The journal module's public surface: other modules and the composition root import only this file.
export { JournalApiModule, JournalModule } from './journal.module';
export { EntryAttachmentsSql } from './domain/entry-attachments.sql';
export { JournalController } from './api/journal.controller';
export { JournalService } from './application/journal.service';
export { type ActivityEntry, type ActivityLine, JournalActivityRepository } from './domain/journal-activity';
export { JournalReadsService } from './application/journal-reads.service';
export type { JournalEntryView } from './domain/journal-entry-read';
export { JOURNAL_FACTS } from './facts';

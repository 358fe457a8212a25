import { Global, Module } from '@nestjs/common';
import { EntryAttachmentsSql } from '../journal';
import { AttachmentsSql } from './sql';

/**
 * Binds the journal's `EntryAttachmentsSql` port to the attachments' own SQL parts (sql.ts), for every
 * module of the listener (global: the journal sits below attachments and must not import it). Imported
 * by AttachmentsCoreModule, and by the console listener, which reads the journal without the attachments' routes.
 */
@Global()
@Module({
  providers: [{ provide: EntryAttachmentsSql, useValue: AttachmentsSql }],
  exports: [EntryAttachmentsSql],
})
export class EntryAttachmentsSqlModule {}

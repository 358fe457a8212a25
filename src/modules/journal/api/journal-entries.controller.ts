import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { Caller, PartnerRoute } from '../../auth/access';
import { type JournalEntriesPage, type JournalEntriesQuery, JournalReadsService } from '../application/journal-reads.service';
import type { JournalEntryView } from '../domain/journal-entry-read';
import { JOURNAL_ENTRIES_PAGE_SCHEMAS, JOURNAL_ENTRIES_QUERY, JOURNAL_ENTRY_SCHEMAS } from './journal.openapi';

/** Reading back what the app posted (CONTRACT §17), scope `journal:read`. */
@ApiTags('journal')
@Controller(PARTNER_BASES.map((base) => `${base}/journal/entries`))
export class JournalEntriesController {
  constructor(private readonly reads: JournalReadsService) {}

  @Get()
  @PartnerRoute('journal:read')
  @PartnerOperation({
    operationId: 'listJournalEntries',
    summary: "The app's journal entries in the order they committed",
    success: partnerJson(200, 'A page of entries; follow `next_cursor`.', ref('JournalEntriesPage')),
    errors: ['invalid_input'],
    schemas: JOURNAL_ENTRIES_PAGE_SCHEMAS,
    query: JOURNAL_ENTRIES_QUERY,
  })
  list(@Caller() caller: CallerContext, @Query() query: JournalEntriesQuery): Promise<JournalEntriesPage> {
    return this.reads.page(caller, query);
  }

  @Get(':entryId')
  @PartnerRoute('journal:read')
  @PartnerOperation({
    operationId: 'getJournalEntry',
    summary: 'One journal entry the app posted, with its attachments',
    success: partnerJson(200, 'The entry.', ref('JournalEntry')),
    errors: ['not_found'],
    schemas: JOURNAL_ENTRY_SCHEMAS,
  })
  get(@Caller() caller: CallerContext, @UuidParam('entryId', 'journal entry') id: string): Promise<JournalEntryView> {
    return this.reads.entry(caller, id);
  }
}

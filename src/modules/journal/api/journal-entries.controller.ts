import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { Caller, PartnerRoute } from '../../auth/access';
import { type JournalEntriesPage, type JournalEntriesQuery, JournalReadsService } from '../application/journal-reads.service';
import type { JournalEntryView } from '../domain/journal-entry-read';

/** Reading back what the app posted (CONTRACT §17), scope `journal:read`. */
@ApiTags('journal')
@Controller(PARTNER_BASES.map((base) => `${base}/journal/entries`))
export class JournalEntriesController {
  constructor(private readonly reads: JournalReadsService) {}

  @Get()
  @PartnerRoute('journal:read')
  @ApiOperation({ summary: "The app's journal entries in commit order" })
  list(@Caller() caller: CallerContext, @Query() query: JournalEntriesQuery): Promise<JournalEntriesPage> {
    return this.reads.page(caller, query);
  }

  @Get(':entryId')
  @PartnerRoute('journal:read')
  @ApiOperation({ summary: 'One of the app\'s journal entries, with its attachments' })
  get(@Caller() caller: CallerContext, @UuidParam('entryId', 'journal entry') id: string): Promise<JournalEntryView> {
    return this.reads.entry(caller, id);
  }
}

import { GrantsModule } from '../auth/grants';
import { Module } from '@nestjs/common';
import { CreateOnceService, IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { ChartController } from './api/chart.controller';
import { JournalController } from './api/journal.controller';
import { JournalEntriesController } from './api/journal-entries.controller';
import { JournalReadsService } from './application/journal-reads.service';
import { JournalEntryReadRepository } from './domain/journal-entry-read';
import { PgJournalEntryReadRepository } from './infrastructure/pg-journal-entry-read.repository';
import { JournalService } from './application/journal.service';
import { JournalPostingRepository } from './domain/journal-posting';
import { ChartReadRepository } from './domain/chart';
import { JournalReferenceRepository } from './domain/journal-references';
import { PgChartReadRepository } from './infrastructure/pg-chart-read.repository';
import { PgJournalPostingRepository } from './infrastructure/pg-journal-posting.repository';
import { PgJournalReferenceRepository } from './infrastructure/pg-journal-reference.repository';
import { JournalActivityRepository } from './domain/journal-activity';
import { PgJournalActivityRepository } from './infrastructure/pg-journal-activity.repository';

/** Prepare, final posting and period close, and reading entries back; used by the partner API, the console (periods) and the developer console (sandbox entries). */
@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule],
  providers: [
    JournalService,
    CreateOnceService,
    { provide: JournalReferenceRepository, useClass: PgJournalReferenceRepository },
    { provide: JournalPostingRepository, useClass: PgJournalPostingRepository },
    { provide: JournalActivityRepository, useClass: PgJournalActivityRepository },
    JournalReadsService,
    { provide: JournalEntryReadRepository, useClass: PgJournalEntryReadRepository },
  ],
  exports: [JournalService, JournalReadsService, JournalActivityRepository],
})
export class JournalModule {}

/** The journal routes of the partner listener (posting, reading back: CONTRACT §17), and the accounts and tax codes a journal may reference. */
@Module({
  imports: [JournalModule],
  controllers: [JournalController, ChartController, JournalEntriesController],
  providers: [{ provide: ChartReadRepository, useClass: PgChartReadRepository }],
})
export class JournalApiModule {}

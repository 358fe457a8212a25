import { GrantsModule } from '../auth/grants';
import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { ChartController } from './api/chart.controller';
import { JournalController } from './api/journal.controller';
import { JournalService } from './application/journal.service';
import { JournalPostingRepository } from './domain/journal-posting';
import { ChartReadRepository } from './domain/chart';
import { JournalReferenceRepository } from './domain/journal-references';
import { TypeOrmChartReadRepository } from './infrastructure/typeorm-chart-read.repository';
import { TypeOrmJournalPostingRepository } from './infrastructure/typeorm-journal-posting.repository';
import { TypeOrmJournalReferenceRepository } from './infrastructure/typeorm-journal-reference.repository';
import { JournalActivityRepository } from './domain/journal-activity';
import { TypeOrmJournalActivityRepository } from './infrastructure/typeorm-journal-activity.repository';

/** Prepare, final posting and period close; used by the partner API and the console (periods). */
@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule],
  providers: [
    JournalService,
    { provide: JournalReferenceRepository, useClass: TypeOrmJournalReferenceRepository },
    { provide: JournalPostingRepository, useClass: TypeOrmJournalPostingRepository },
    { provide: JournalActivityRepository, useClass: TypeOrmJournalActivityRepository },
  ],
  exports: [JournalService, JournalActivityRepository],
})
export class JournalModule {}

/** The journal routes of the partner listener, and the accounts and tax codes a journal may reference. */
@Module({
  imports: [JournalModule],
  controllers: [JournalController, ChartController],
  providers: [{ provide: ChartReadRepository, useClass: TypeOrmChartReadRepository }],
})
export class JournalApiModule {}

import { Module } from '@nestjs/common';
import { JournalController } from './api/journal.controller';
import { JournalService } from './application/journal.service';
import { JournalReferenceRepository } from './domain/journal-references';
import { TypeOrmJournalReferenceRepository } from './infrastructure/typeorm-journal-reference.repository';

@Module({
  controllers: [JournalController],
  providers: [JournalService, { provide: JournalReferenceRepository, useClass: TypeOrmJournalReferenceRepository }],
})
export class JournalModule {}

import { Module } from '@nestjs/common';
import { AppService } from './application/app.service';
import { AppReadRepository } from './domain/app-read.repository';
import { AppRepository } from './domain/app.repository';
import { PgAppReadRepository } from './infrastructure/pg-app-read.repository';
import { PgAppRepository } from './infrastructure/pg-app.repository';

/** Partner apps and their revisions (registration, approval). */
@Module({
  providers: [AppService, { provide: AppRepository, useClass: PgAppRepository }, { provide: AppReadRepository, useClass: PgAppReadRepository }],
  exports: [AppService, AppRepository, AppReadRepository],
})
export class AppsModule {}

import { Module } from '@nestjs/common';
import { AppService } from './application/app.service';
import { AppReadRepository } from './domain/app-read.repository';
import { AppRepository } from './domain/app.repository';
import { TypeOrmAppReadRepository } from './infrastructure/typeorm-app-read.repository';
import { TypeOrmAppRepository } from './infrastructure/typeorm-app.repository';

/** Partner apps and their revisions (registration, approval). */
@Module({
  providers: [
    AppService,
    { provide: AppRepository, useClass: TypeOrmAppRepository },
    { provide: AppReadRepository, useClass: TypeOrmAppReadRepository },
  ],
  exports: [AppService, AppRepository, AppReadRepository],
})
export class AppsModule {}

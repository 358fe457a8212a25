import { Module } from '@nestjs/common';
import { AppService } from './application/app.service';
import { AppRepository } from './domain/app.repository';
import { TypeOrmAppRepository } from './infrastructure/typeorm-app.repository';

/** Partner apps and their revisions (registration, approval). */
@Module({
  providers: [AppService, { provide: AppRepository, useClass: TypeOrmAppRepository }],
  exports: [AppService, AppRepository],
})
export class AppsModule {}

import { Module } from '@nestjs/common';
import { AccessCheckService } from './application/access-check.service';
import { AccessRepository } from './domain/access.repository';
import { PgAccessRepository } from './infrastructure/pg-access.repository';

/** Partner access: the token look-up, the per-call access check. */
@Module({
  providers: [AccessCheckService, { provide: AccessRepository, useClass: PgAccessRepository }],
  exports: [AccessCheckService],
})
export class AccessModule {}

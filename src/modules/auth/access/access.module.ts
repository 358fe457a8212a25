import { Module } from '@nestjs/common';
import { AccessCheckService } from './application/access-check.service';
import { AccessRepository } from './domain/access.repository';
import { TypeOrmAccessRepository } from './infrastructure/typeorm-access.repository';

/** Partner access: the token look-up, the per-call access check. */
@Module({
  providers: [AccessCheckService, { provide: AccessRepository, useClass: TypeOrmAccessRepository }],
  exports: [AccessCheckService],
})
export class AccessModule {}

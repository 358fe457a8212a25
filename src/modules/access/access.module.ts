import { Module } from '@nestjs/common';
import { AccessCheckService } from './application/access-check.service';
import { WriteAccessService } from './application/write-access.service';
import { AccessRepository } from './domain/access.repository';
import { WriteAccessRepository } from './domain/write-access.repository';
import { TypeOrmAccessRepository } from './infrastructure/typeorm-access.repository';
import { TypeOrmWriteAccessRepository } from './infrastructure/typeorm-write-access.repository';

/** Partner access: the token look-up, the per-call access check and the write-time gate. */
@Module({
  providers: [
    AccessCheckService,
    WriteAccessService,
    { provide: AccessRepository, useClass: TypeOrmAccessRepository },
    { provide: WriteAccessRepository, useClass: TypeOrmWriteAccessRepository },
  ],
  exports: [AccessCheckService, WriteAccessService],
})
export class AccessModule {}

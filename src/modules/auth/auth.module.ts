import { Module } from '@nestjs/common';
import { AccessCheckService } from './application/access-check.service';
import { SandboxService } from './application/sandbox.service';
import { AccessRepository } from './domain/access.repository';
import { SandboxRepository } from './domain/sandbox.repository';
import { TypeOrmAccessRepository } from './infrastructure/typeorm-access.repository';
import { TypeOrmSandboxRepository } from './infrastructure/typeorm-sandbox.repository';

/** Tokens, sandbox projects, grants and the per-call access check. */
@Module({
  providers: [
    AccessCheckService,
    SandboxService,
    { provide: AccessRepository, useClass: TypeOrmAccessRepository },
    { provide: SandboxRepository, useClass: TypeOrmSandboxRepository },
  ],
  exports: [AccessCheckService, SandboxService],
})
export class AuthModule {}

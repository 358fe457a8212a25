import { Module } from '@nestjs/common';
import { SandboxService } from './application/sandbox.service';
import { SandboxRepository } from './domain/sandbox.repository';
import { TypeOrmSandboxRepository } from './infrastructure/typeorm-sandbox.repository';

/** Sandbox projects: provisioning and token generations. */
@Module({
  providers: [SandboxService, { provide: SandboxRepository, useClass: TypeOrmSandboxRepository }],
  exports: [SandboxService],
})
export class SandboxModule {}

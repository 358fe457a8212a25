import { Module } from '@nestjs/common';
import { SandboxService } from './application/sandbox.service';
import { SandboxTokenSqlModule } from './sandbox-token-sql.module';
import { SandboxRepository } from './domain/sandbox.repository';
import { TypeOrmSandboxRepository } from './infrastructure/typeorm-sandbox.repository';

/** Sandbox projects: provisioning and token generations. */
@Module({
  imports: [SandboxTokenSqlModule],
  providers: [SandboxService, { provide: SandboxRepository, useClass: TypeOrmSandboxRepository }],
  exports: [SandboxService],
})
export class SandboxModule {}

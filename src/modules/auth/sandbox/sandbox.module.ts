import { Module } from '@nestjs/common';
import { SandboxService } from './application/sandbox.service';
import { SandboxTokenSqlModule } from './sandbox-token-sql.module';
import { SandboxRepository } from './domain/sandbox.repository';
import { PgSandboxRepository } from './infrastructure/pg-sandbox.repository';

/** Sandbox projects: provisioning and token generations. */
@Module({
  imports: [SandboxTokenSqlModule],
  providers: [SandboxService, { provide: SandboxRepository, useClass: PgSandboxRepository }],
  exports: [SandboxService],
})
export class SandboxModule {}

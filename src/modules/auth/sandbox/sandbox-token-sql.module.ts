import { Global, Module } from '@nestjs/common';
import { SandboxTokenSql } from '../access';
import { SandboxSql } from './sql';

/**
 * Binds access's `SandboxTokenSql` port to sandbox's own SQL parts (sql.ts) for every module of the
 * listener (global: access and grants sit below sandbox and must not import it). Imported by SandboxModule.
 */
@Global()
@Module({
  providers: [{ provide: SandboxTokenSql, useValue: SandboxSql }],
  exports: [SandboxTokenSql],
})
export class SandboxTokenSqlModule {}

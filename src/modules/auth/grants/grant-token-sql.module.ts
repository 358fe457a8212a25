import { Global, Module } from '@nestjs/common';
import { GrantTokenSql } from '../access';
import { GrantsSql } from './sql';

/**
 * Binds access's `GrantTokenSql` port to grants' own SQL parts (sql.ts) for every module of the listener
 * (global: access sits below grants and must not import it). Imported by GrantsModule.
 */
@Global()
@Module({
  providers: [{ provide: GrantTokenSql, useValue: GrantsSql }],
  exports: [GrantTokenSql],
})
export class GrantTokenSqlModule {}

import { Global, Module } from '@nestjs/common';
import { DemoIdentitySql } from '../auth/organizations';
import { DevelopersSql } from './sql';

/**
 * Binds the organizations module's `DemoIdentitySql` port to the developers' own SQL parts (sql.ts), for
 * every module of the listener (global: organizations, grants and consent sit below developers and must
 * not import it). Imported once, by DevelopersCoreModule, which both listeners load.
 */
@Global()
@Module({
  providers: [{ provide: DemoIdentitySql, useValue: DevelopersSql }],
  exports: [DemoIdentitySql],
})
export class DemoIdentityModule {}

import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../auth/organizations';
import { DemoIdentityModule } from './demo-identity.module';
import { DemoCompanyService } from './application/demo-company.service';
import { DeveloperOperatorService } from './application/developer-operator.service';
import { DeveloperRepository } from './domain/developer.repository';
import { PgDeveloperRepository } from './infrastructure/pg-developer.repository';

/**
 * The developers' tables and what the operator does with them, without the pages: the console listener
 * imports this (the developer console's controllers stay on the partner listener, DevelopersModule).
 */
@Module({
  imports: [OrganizationsModule, DemoIdentityModule],
  providers: [DeveloperOperatorService, DemoCompanyService, { provide: DeveloperRepository, useClass: PgDeveloperRepository }],
  exports: [DeveloperOperatorService, DemoCompanyService, DeveloperRepository],
})
export class DevelopersCoreModule {}

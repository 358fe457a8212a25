import { Module } from '@nestjs/common';
import { OrganizationService } from './application/organization.service';
import { SecondFactorService } from './application/second-factor.service';
import { OrganizationReadRepository } from './domain/organization-read.repository';
import { OrganizationRepository } from './domain/organization.repository';
import { OwnerRepository } from './domain/owner.repository';
import { SecondFactorLockoutRepository } from './domain/second-factor-lockout.repository';
import { PgOrganizationReadRepository } from './infrastructure/pg-organization-read.repository';
import { PgOrganizationRepository } from './infrastructure/pg-organization.repository';
import { PgOwnerRepository } from './infrastructure/pg-owner.repository';
import { PgSecondFactorLockoutRepository } from './infrastructure/pg-second-factor-lockout.repository';

/** Organizations, their chart of accounts and tax codes, their owners and the owners' second factor. */
@Module({
  providers: [
    OrganizationService,
    SecondFactorService,
    { provide: OrganizationRepository, useClass: PgOrganizationRepository },
    { provide: OrganizationReadRepository, useClass: PgOrganizationReadRepository },
    { provide: OwnerRepository, useClass: PgOwnerRepository },
    { provide: SecondFactorLockoutRepository, useClass: PgSecondFactorLockoutRepository },
  ],
  exports: [OrganizationService, SecondFactorService, OrganizationRepository, OrganizationReadRepository],
})
export class OrganizationsModule {}

import { Module } from '@nestjs/common';
import { OrganizationService } from './application/organization.service';
import { SecondFactorService } from './application/second-factor.service';
import { OrganizationReadRepository } from './domain/organization-read.repository';
import { OrganizationRepository } from './domain/organization.repository';
import { OwnerRepository } from './domain/owner.repository';
import { SecondFactorLockoutRepository } from './domain/second-factor-lockout.repository';
import { TypeOrmOrganizationReadRepository } from './infrastructure/typeorm-organization-read.repository';
import { TypeOrmOrganizationRepository } from './infrastructure/typeorm-organization.repository';
import { TypeOrmOwnerRepository } from './infrastructure/typeorm-owner.repository';
import { TypeOrmSecondFactorLockoutRepository } from './infrastructure/typeorm-second-factor-lockout.repository';

/** Organizations, their chart of accounts and tax codes, their owners and the owners' second factor. */
@Module({
  providers: [
    OrganizationService,
    SecondFactorService,
    { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
    { provide: OrganizationReadRepository, useClass: TypeOrmOrganizationReadRepository },
    { provide: OwnerRepository, useClass: TypeOrmOwnerRepository },
    { provide: SecondFactorLockoutRepository, useClass: TypeOrmSecondFactorLockoutRepository },
  ],
  exports: [OrganizationService, SecondFactorService, OrganizationRepository, OrganizationReadRepository],
})
export class OrganizationsModule {}

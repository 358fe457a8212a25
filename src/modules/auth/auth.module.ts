import { Module } from '@nestjs/common';
import { AccessCheckService } from './application/access-check.service';
import { AppService } from './application/app.service';
import { GrantService } from './application/grant.service';
import { MandateService } from './application/mandate.service';
import { OrganizationService } from './application/organization.service';
import { ResourceLookupService } from './application/resource-lookup.service';
import { SandboxService } from './application/sandbox.service';
import { SecondFactorService } from './application/second-factor.service';
import { AccessRepository } from './domain/access.repository';
import { AppRepository } from './domain/app.repository';
import { GrantRepository } from './domain/grant.repository';
import { MandateRepository } from './domain/mandate.repository';
import { OrganizationRepository } from './domain/organization.repository';
import { OwnerRepository } from './domain/owner.repository';
import { ResourceLookupRepository } from './domain/resource-lookup.repository';
import { SandboxRepository } from './domain/sandbox.repository';
import { TypeOrmAccessRepository } from './infrastructure/typeorm-access.repository';
import { TypeOrmAppRepository } from './infrastructure/typeorm-app.repository';
import { TypeOrmGrantRepository } from './infrastructure/typeorm-grant.repository';
import { TypeOrmMandateRepository } from './infrastructure/typeorm-mandate.repository';
import { TypeOrmOrganizationRepository } from './infrastructure/typeorm-organization.repository';
import { TypeOrmOwnerRepository } from './infrastructure/typeorm-owner.repository';
import { TypeOrmResourceLookupRepository } from './infrastructure/typeorm-resource-lookup.repository';
import { TypeOrmSandboxRepository } from './infrastructure/typeorm-sandbox.repository';
import { SecondFactorLockoutRepository } from './domain/second-factor-lockout.repository';
import { TypeOrmSecondFactorLockoutRepository } from './infrastructure/typeorm-second-factor-lockout.repository';
import { WriteAccessRepository } from './domain/write-access.repository';
import { TypeOrmWriteAccessRepository } from './infrastructure/typeorm-write-access.repository';
import { WriteAccessService } from './application/write-access.service';

/** Tokens, sandbox projects, organizations, apps, grants, mandates and the per-call access check. */
@Module({
  providers: [
    AccessCheckService,
    SandboxService,
    OrganizationService,
    AppService,
    GrantService,
    MandateService,
    SecondFactorService,
    ResourceLookupService,
    { provide: AccessRepository, useClass: TypeOrmAccessRepository },
    { provide: SandboxRepository, useClass: TypeOrmSandboxRepository },
    { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
    { provide: OwnerRepository, useClass: TypeOrmOwnerRepository },
    { provide: AppRepository, useClass: TypeOrmAppRepository },
    { provide: GrantRepository, useClass: TypeOrmGrantRepository },
    { provide: MandateRepository, useClass: TypeOrmMandateRepository },
    { provide: ResourceLookupRepository, useClass: TypeOrmResourceLookupRepository },
    { provide: SecondFactorLockoutRepository, useClass: TypeOrmSecondFactorLockoutRepository },
    { provide: WriteAccessRepository, useClass: TypeOrmWriteAccessRepository },
    WriteAccessService,
  ],
  exports: [WriteAccessService, AccessCheckService, SandboxService, OrganizationService, AppService, GrantService, MandateService, ResourceLookupService, SecondFactorService],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { WriteAccessGate } from '../../idempotency';
import { AppsModule } from '../apps';
import { GrantTokenSqlModule } from './grant-token-sql.module';
import { GrantController } from './api/grant.controller';
import { GrantEventsScan } from './application/grant-events-scan';
import { TokenGrantService } from './application/token-grant.service';
import { OrganizationsModule } from '../organizations';
import { GrantService } from './application/grant.service';
import { MandateService } from './application/mandate.service';
import { WriteAccessService } from './application/write-access.service';
import { GrantReadRepository } from './domain/grant-read.repository';
import { GrantRepository } from './domain/grant.repository';
import { MandateRepository } from './domain/mandate.repository';
import { WriteAccessRepository } from './domain/write-access.repository';
import { TypeOrmGrantReadRepository } from './infrastructure/typeorm-grant-read.repository';
import { TypeOrmGrantRepository } from './infrastructure/typeorm-grant.repository';
import { TypeOrmMandateRepository } from './infrastructure/typeorm-mandate.repository';
import { TypeOrmWriteAccessRepository } from './infrastructure/typeorm-write-access.repository';

/** Customer grants (and the production tokens issued under them), posting mandates, and the write-time re-check of both. */
@Module({
  imports: [OrganizationsModule, AppsModule, GrantTokenSqlModule],
  providers: [
    GrantService,
    MandateService,
    WriteAccessService,
    { provide: GrantRepository, useClass: TypeOrmGrantRepository },
    { provide: GrantReadRepository, useClass: TypeOrmGrantReadRepository },
    { provide: MandateRepository, useClass: TypeOrmMandateRepository },
    { provide: WriteAccessRepository, useClass: TypeOrmWriteAccessRepository },
    // create-once's gate (the idempotency module's port)
    { provide: WriteAccessGate, useExisting: WriteAccessService },
  ],
  exports: [GrantService, MandateService, WriteAccessService, GrantReadRepository, WriteAccessGate],
})
export class GrantsModule {}

/** `GET {base}/grant` on the partner listener (CONTRACT §18). */
@Module({
  imports: [GrantsModule],
  controllers: [GrantController],
  providers: [TokenGrantService],
})
export class GrantsApiModule {}

/**
 * The expiry scan (CONTRACT §18: grant.revoked after an expiry, grant.expiring 14 days ahead), run by
 * the partner listener of every instance.
 */
@Module({
  providers: [GrantEventsScan, { provide: GrantRepository, useClass: TypeOrmGrantRepository }],
  exports: [GrantEventsScan],
})
export class GrantEventsModule {}

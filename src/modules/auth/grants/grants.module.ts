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
import { PgGrantReadRepository } from './infrastructure/pg-grant-read.repository';
import { PgGrantRepository } from './infrastructure/pg-grant.repository';
import { PgMandateRepository } from './infrastructure/pg-mandate.repository';
import { PgWriteAccessRepository } from './infrastructure/pg-write-access.repository';

/** Customer grants (and the production tokens issued under them), posting mandates, and the write-time re-check of both. */
@Module({
  imports: [OrganizationsModule, AppsModule, GrantTokenSqlModule],
  providers: [
    GrantService,
    MandateService,
    WriteAccessService,
    { provide: GrantRepository, useClass: PgGrantRepository },
    { provide: GrantReadRepository, useClass: PgGrantReadRepository },
    { provide: MandateRepository, useClass: PgMandateRepository },
    { provide: WriteAccessRepository, useClass: PgWriteAccessRepository },
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
  providers: [GrantEventsScan, { provide: GrantRepository, useClass: PgGrantRepository }],
  exports: [GrantEventsScan],
})
export class GrantEventsModule {}

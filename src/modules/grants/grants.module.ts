import { Module } from '@nestjs/common';
import { AppsModule } from '../apps';
import { OrganizationsModule } from '../organizations';
import { GrantService } from './application/grant.service';
import { MandateService } from './application/mandate.service';
import { GrantRepository } from './domain/grant.repository';
import { MandateRepository } from './domain/mandate.repository';
import { TypeOrmGrantRepository } from './infrastructure/typeorm-grant.repository';
import { TypeOrmMandateRepository } from './infrastructure/typeorm-mandate.repository';

/** Customer grants (and the production tokens issued under them) and posting mandates. */
@Module({
  imports: [OrganizationsModule, AppsModule],
  providers: [
    GrantService,
    MandateService,
    { provide: GrantRepository, useClass: TypeOrmGrantRepository },
    { provide: MandateRepository, useClass: TypeOrmMandateRepository },
  ],
  exports: [GrantService, MandateService],
})
export class GrantsModule {}

// The grants module's public surface: other modules and the composition root import only this file.
export { GrantEventsModule, GrantsApiModule, GrantsModule } from './grants.module';
export { GrantEventsScan } from './application/grant-events-scan';
export { GrantService } from './application/grant.service';
export { MandateService } from './application/mandate.service';
export { WriteAccessService } from './application/write-access.service';
export { type GrantInForce, GrantReadRepository, type GrantView } from './domain/grant-read.repository';
export { MAX_GRANT_ACCOUNTS, MAX_GRANT_SECONDS } from './domain/grant-rules';
export { GRANTS_FACTS } from './facts';

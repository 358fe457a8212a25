// The access module's public surface: other modules and the composition root import only this file.
export { AccessModule } from './access.module';
export { PartnerAuthGuard } from './api/partner-auth.guard';
export { Caller, PartnerRoute } from './api/partner-route.decorator';
export { AppRevisionChangedError, GrantExpiredError, GrantRevokedError, InvalidTokenError, MandateRequiredError } from './domain/access.errors';
export { GrantTokenSql, SandboxTokenSql } from './domain/token-state.sql';
export { generateAccessToken, hashAccessToken, parseAccessToken, randomBase62 } from './domain/access-token';
export { ACCESS_FACTS } from './facts';

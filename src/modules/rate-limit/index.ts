// The rate-limit module's public surface: other modules and the composition root import only this file.
export { RateLimitModule } from './rate-limit.module';
export { RateLimitService } from './rate-limit.service';
export { type AnonymousAdmission, type AnonymousBudget, AnonymousFormLimitMiddleware, AnonymousRateLimit } from './anonymous-rate-limit';
export { addressGroup } from './address-group';
export { OAUTH_CLIENT_PER_MINUTE, OAuthClientRateLimit } from './client-rate-limit';
export { IN_FLIGHT_RETRY_AFTER_SECONDS, InFlightLimit } from './in-flight-limit';

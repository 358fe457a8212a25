import { Module } from '@nestjs/common';
import { AnonymousFormLimitMiddleware, AnonymousRateLimit } from './anonymous-rate-limit';
import { OAuthClientRateLimit } from './client-rate-limit';
import { InFlightLimit } from './in-flight-limit';
import { RateLimitService } from './rate-limit.service';

/** The partner listener's per-token call limit, the per-address limit of anonymous calls (CONTRACT §12) and the per-token cap of requests in flight (§20). */
@Module({
  providers: [RateLimitService, AnonymousRateLimit, AnonymousFormLimitMiddleware, OAuthClientRateLimit, InFlightLimit],
  exports: [RateLimitService, AnonymousRateLimit, AnonymousFormLimitMiddleware, OAuthClientRateLimit, InFlightLimit],
})
export class RateLimitModule {}

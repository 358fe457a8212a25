import { Module } from '@nestjs/common';
import { AnonymousFormLimitMiddleware, AnonymousRateLimit } from './anonymous-rate-limit';
import { OAuthClientRateLimit } from './client-rate-limit';
import { RateLimitService } from './rate-limit.service';

/** The partner listener's per-token call limit and the per-address limit of anonymous calls (CONTRACT §12). */
@Module({
  providers: [RateLimitService, AnonymousRateLimit, AnonymousFormLimitMiddleware, OAuthClientRateLimit],
  exports: [RateLimitService, AnonymousRateLimit, AnonymousFormLimitMiddleware, OAuthClientRateLimit],
})
export class RateLimitModule {}

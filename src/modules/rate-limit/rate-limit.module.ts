import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';

/** The partner listener's per-token call limit (CONTRACT §12). */
@Module({ providers: [RateLimitService], exports: [RateLimitService] })
export class RateLimitModule {}

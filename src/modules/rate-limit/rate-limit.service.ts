import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { WindowLimiter } from './window-limiter';

export interface RateLimitOutcome {
  allowed: boolean;
  /** `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers), CONTRACT §12 */
  headers: { 'RateLimit-Policy': string; RateLimit: string };
  /** whole seconds, at least 1, when refused */
  retryAfterSeconds: number;
}

/** The per-token partner call limit of CONTRACT §12 (RATE_LIMIT_PER_MINUTE), a WindowLimiter keyed by the token's hash. */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly limit: number;
  private readonly limiter: WindowLimiter | null;
  private readonly policy: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.rateLimitPerMinute;
    this.policy = `"partner";q=${this.limit};w=60`;
    this.limiter = this.limit === 0 ? null : new WindowLimiter(config, this.limit, 'rl');
  }

  get enabled(): boolean {
    return this.limiter !== null;
  }

  /** Whether counting works right now: true in memory, Redis's connection state otherwise. */
  get storeReady(): boolean {
    return this.limiter !== null && this.limiter.storeReady;
  }

  /** Counts one call of the token (by its hash) and says whether it may run. Null when the limit is off. */
  async take(tokenKey: string, nowMs: number = Date.now()): Promise<RateLimitOutcome | null> {
    if (!this.limiter) return null;
    const d = await this.limiter.take(tokenKey, nowMs);
    // the store failed: let the call through (fail open)
    if (d === null) return this.outcome(true, this.limit, 0);
    return this.outcome(d.allowed, d.remaining, d.secondsUntilFree);
  }

  private outcome(allowed: boolean, remaining: number, seconds: number): RateLimitOutcome {
    return {
      allowed,
      headers: { 'RateLimit-Policy': this.policy, RateLimit: `"partner";r=${remaining};t=${seconds}` },
      retryAfterSeconds: Math.max(1, seconds),
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.limiter?.close();
  }
}

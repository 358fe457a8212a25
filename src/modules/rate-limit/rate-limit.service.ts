import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { decide, WINDOW_MS } from './sliding-window';

export interface RateLimitOutcome {
  allowed: boolean;
  /** `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers), CONTRACT §12 */
  headers: { 'RateLimit-Policy': string; RateLimit: string };
  /** whole seconds, at least 1, when refused */
  retryAfterSeconds: number;
}

const WARN_EVERY_MS = 60_000;

/**
 * The per-token partner call limit of CONTRACT §12, counted with rate-limiter-flexible: in this
 * process by default, in Redis when REDIS_URL is set (then every instance shares the counters).
 * Redis unreachable: calls are let through and a warning is logged at most once a minute.
 *
 * Each token has one counter per fixed minute (kept two minutes); the sliding window is estimated
 * from the current and the previous one (sliding-window.ts). Both are read in parallel, so a call
 * costs one Redis round trip of latency.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly logger = new Logger('rate-limit');
  private readonly limit: number;
  private readonly limiter: RateLimiterAbstract | null;
  private readonly redis: Redis | null = null;
  private readonly policy: string;
  private lastWarningAt = -Infinity;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.rateLimitPerMinute;
    this.policy = `"partner";q=${this.limit};w=60`;
    if (this.limit === 0) {
      this.limiter = null;
      return;
    }
    const options = { points: this.limit, duration: (2 * WINDOW_MS) / 1000, keyPrefix: 'rl' };
    if (config.redisUrl) {
      this.redis = new Redis(config.redisUrl, {
        // fail fast while Redis is away instead of queueing calls behind it
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500,
        connectTimeout: 2_000,
        retryStrategy: (times) => Math.min(times * 200, 2_000),
        keyPrefix: config.redisKeyPrefix,
      });
      // ioredis reports each failed reconnect here; the warning comes from the calls let through
      this.redis.on('error', () => undefined);
      this.limiter = new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true });
    } else {
      this.limiter = new RateLimiterMemory(options);
    }
  }

  get enabled(): boolean {
    return this.limiter !== null;
  }

  /** Whether counting works right now: true in memory, Redis's connection state otherwise. */
  get storeReady(): boolean {
    return this.limiter !== null && (this.redis === null || this.redis.status === 'ready');
  }

  /** Counts one call of the token (by its hash) and says whether it may run. Null when the limit is off. */
  async take(tokenKey: string, nowMs: number = Date.now()): Promise<RateLimitOutcome | null> {
    const limiter = this.limiter;
    if (!limiter) return null;
    const minute = Math.floor(nowMs / WINDOW_MS);
    const currentKey = `${tokenKey}:${minute}`;
    let previous: RateLimiterRes | null;
    let current: RateLimiterRes;
    try {
      [previous, current] = await Promise.all([
        limiter.get(`${tokenKey}:${minute - 1}`),
        // rejects with a RateLimiterRes when over `points`, with an Error when the store fails
        limiter.consume(currentKey, 1).catch((r: unknown) => {
          if (r instanceof RateLimiterRes) return r;
          throw r;
        }),
      ]);
    } catch (err) {
      this.warn(err as Error);
      return this.outcome(true, this.limit, 0);
    }
    const d = decide(this.limit, {
      previous: previous?.consumedPoints ?? 0,
      current: current.consumedPoints,
      elapsed: (nowMs - minute * WINDOW_MS) / WINDOW_MS,
    });
    if (!d.allowed) {
      // a refused call executes nothing and is not counted
      await limiter.reward(currentKey, 1).catch((err: Error) => this.warn(err));
    }
    return this.outcome(d.allowed, d.remaining, d.secondsUntilFree);
  }

  private outcome(allowed: boolean, remaining: number, seconds: number): RateLimitOutcome {
    return {
      allowed,
      headers: { 'RateLimit-Policy': this.policy, RateLimit: `"partner";r=${remaining};t=${seconds}` },
      retryAfterSeconds: Math.max(1, seconds),
    };
  }

  private warn(err: Error): void {
    const now = Date.now();
    if (now - this.lastWarningAt < WARN_EVERY_MS) return;
    this.lastWarningAt = now;
    this.logger.warn(`rate-limit store unreachable, letting calls through: ${err.message}`);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis) this.redis.disconnect();
  }
}

import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../../shared/config/app-config';
import { decide, WINDOW_MS, type WindowDecision } from './sliding-window';

const WARN_EVERY_MS = 60_000;

/**
 * The counters of one process when there is no Redis: per fixed minute, the calls counted per key. What
 * rate-limiter-flexible's memory store kept (a counter per key and minute, read for this minute and the one
 * before), without its promises, result objects and a timer per new key, which made the partner path's limit
 * cost a multiple of the yardstick baseline's by-hand window (bench/RESULTS.md, issue 37). Minutes older than the one
 * before the newest seen are dropped when a newer minute begins.
 */
export class MemoryMinutes {
  private readonly minutes = new Map<number, Map<string, number>>();
  private newest = -Infinity;

  /** Calls counted for `key` in `minute` (0 when none). */
  counted(key: string, minute: number): number {
    return this.minutes.get(minute)?.get(key) ?? 0;
  }

  /** Sets the count of `key` in `minute`. */
  set(key: string, minute: number, count: number): void {
    let counts = this.minutes.get(minute);
    if (!counts) {
      this.minutes.set(minute, (counts = new Map()));
      if (minute > this.newest) {
        this.newest = minute;
        for (const m of this.minutes.keys()) if (m < minute - 1) this.minutes.delete(m);
      }
    }
    counts.set(key, count);
  }
}

/**
 * One sliding one-minute limit (CONTRACT §12): counted in this process by default (MemoryMinutes), in Redis
 * with rate-limiter-flexible when REDIS_URL is set (then every instance shares the counters). Redis unreachable:
 * calls are let through and a warning is logged at most once a minute.
 *
 * Each key has one counter per fixed minute (kept two minutes); the sliding window is estimated from
 * the current and the previous one (sliding-window.ts). Both are read in parallel, so a call costs one
 * Redis round trip of latency. A refused call is not counted.
 */
export class WindowLimiter {
  private readonly logger = new Logger('rate-limit');
  private readonly limiter: RateLimiterAbstract | null = null;
  private readonly memory: MemoryMinutes | null = null;
  private readonly redis: Redis | null = null;
  private lastWarningAt = -Infinity;

  constructor(
    config: AppConfig,
    readonly limit: number,
    keyPrefix: string,
  ) {
    const options = { points: limit, duration: (2 * WINDOW_MS) / 1000, keyPrefix };
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
      this.memory = new MemoryMinutes();
    }
  }

  /** Whether counting works right now: true in memory, Redis's connection state otherwise. */
  get storeReady(): boolean {
    return this.redis === null || this.redis.status === 'ready';
  }

  /** Counts one call of `key` and says whether it may run; null when the store failed (let through). */
  async take(key: string, nowMs: number = Date.now()): Promise<WindowDecision | null> {
    if (this.memory) return this.takeInMemory(this.memory, key, nowMs);
    return (await this.takeCounted(key, nowMs))?.decision ?? null;
  }

  /** In this process: the same arithmetic, synchronously; a refused call is not counted. */
  private takeInMemory(memory: MemoryMinutes, key: string, nowMs: number): WindowDecision {
    const minute = Math.floor(nowMs / WINDOW_MS);
    const current = memory.counted(key, minute) + 1;
    const d = decide(this.limit, { previous: memory.counted(key, minute - 1), current, elapsed: (nowMs - minute * WINDOW_MS) / WINDOW_MS });
    if (d.allowed) memory.set(key, minute, current);
    return d;
  }

  /**
   * As `take`, and for an allowed call a `giveBack` that takes its point back (from the minute it was
   * counted in): a call found afterwards to have a known identity does not count (CONTRACT §12).
   */
  async takeCounted(key: string, nowMs: number = Date.now()): Promise<{ decision: WindowDecision; giveBack: () => Promise<void> } | null> {
    const memory = this.memory;
    if (memory) {
      const decision = this.takeInMemory(memory, key, nowMs);
      const minute = Math.floor(nowMs / WINDOW_MS);
      const giveBack = async (): Promise<void> => memory.set(key, minute, Math.max(0, memory.counted(key, minute) - 1));
      return { decision, giveBack: decision.allowed ? giveBack : async () => undefined };
    }
    const limiter = this.limiter!;
    const minute = Math.floor(nowMs / WINDOW_MS);
    const currentKey = `${key}:${minute}`;
    let previous: RateLimiterRes | null;
    let current: RateLimiterRes;
    try {
      [previous, current] = await Promise.all([
        limiter.get(`${key}:${minute - 1}`),
        // rejects with a RateLimiterRes when over `points`, with an Error when the store fails
        limiter.consume(currentKey, 1).catch((r: unknown) => {
          if (r instanceof RateLimiterRes) return r;
          throw r;
        }),
      ]);
    } catch (err) {
      this.warn(err as Error);
      return null;
    }
    const d = decide(this.limit, {
      previous: previous?.consumedPoints ?? 0,
      current: current.consumedPoints,
      elapsed: (nowMs - minute * WINDOW_MS) / WINDOW_MS,
    });
    const giveBack = async (): Promise<void> => {
      await limiter.reward(currentKey, 1).catch((err: Error) => this.warn(err));
    };
    // a refused call executes nothing and is not counted
    if (!d.allowed) await giveBack();
    return { decision: d, giveBack: d.allowed ? giveBack : async () => undefined };
  }

  private warn(err: Error): void {
    const now = Date.now();
    if (now - this.lastWarningAt < WARN_EVERY_MS) return;
    this.lastWarningAt = now;
    this.logger.warn(`rate-limit store unreachable, letting calls through: ${err.message}`);
  }

  close(): void {
    if (this.redis) this.redis.disconnect();
  }
}

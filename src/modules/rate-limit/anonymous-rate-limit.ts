import { Inject, Injectable, type NestMiddleware, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { clientAddress } from '../../shared/http/client-address';
import { messagePage, PAGE_SECURITY_HEADERS } from '../../shared/web';
import { WindowLimiter } from './window-limiter';

/** Addresses remembered as over the limit at most; beyond it the oldest are forgotten (they are counted again). */
const REMEMBERED_MAX = 10_000;

/**
 * CONTRACT §12: calls without a known identity (sign-in and sign-up POSTs of the pages, `POST
 * /oauth/token`, `POST /oauth/revoke`, partner calls whose token is missing, malformed or unknown) are
 * limited per client address (the peer's, or the one TRUST_PROXY trusts) to
 * RATE_LIMIT_ANONYMOUS_PER_MINUTE, in Redis with REDIS_URL (shared by every instance), else in memory.
 * Over it the call is refused before any password hash or database look-up. An address this instance
 * saw use up its limit is remembered until its Retry-After, so that a partner call with a well-formed
 * token from it is refused without the token's look-up (`refusing`, no I/O) — unless this instance
 * found that token's hash known lately (`markKnown`), so a partner behind the same address as a
 * stranger keeps working. Only "this hash was a token" is remembered: every call still reads the
 * token and its grant, so nothing a revocation changes is cached.
 */
@Injectable()
export class AnonymousRateLimit implements OnModuleDestroy {
  private readonly limiter: WindowLimiter | null;
  private readonly over = new Map<string, number>();
  private readonly known = new Set<string>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const limit = config.rateLimitAnonymousPerMinute;
    this.limiter = limit === 0 ? null : new WindowLimiter(config, limit, 'rla');
  }

  get storeReady(): boolean {
    return this.limiter !== null && this.limiter.storeReady;
  }

  /** Counts one anonymous call of `address`: null when it may run, else its Retry-After in seconds. */
  async take(address: string, nowMs: number = Date.now()): Promise<number | null> {
    if (!this.limiter) return null;
    const d = await this.limiter.take(address, nowMs);
    if (d === null) return null;
    const seconds = Math.max(1, d.secondsUntilFree);
    // the last call left (or over it): the address's next unknown token is refused without its look-up
    if (d.remaining === 0) this.remember(address, nowMs + seconds * 1000);
    return d.allowed ? null : seconds;
  }

  /** Retry-After in seconds when this instance knows the address is over the limit; null otherwise. Counts nothing. */
  refusing(address: string, nowMs: number = Date.now()): number | null {
    const until = this.over.get(address);
    if (until === undefined) return null;
    if (until <= nowMs) {
      this.over.delete(address);
      return null;
    }
    return Math.max(1, Math.ceil((until - nowMs) / 1000));
  }

  /** The token hash was found (a known identity): its calls are not refused by `refusing`. */
  markKnown(tokenHash: string): void {
    if (this.known.has(tokenHash)) return;
    if (this.known.size >= REMEMBERED_MAX) this.known.delete(this.known.values().next().value as string);
    this.known.add(tokenHash);
  }

  isKnown(tokenHash: string): boolean {
    return this.known.has(tokenHash);
  }

  private remember(address: string, until: number): void {
    this.over.delete(address);
    if (this.over.size >= REMEMBERED_MAX) {
      const now = Date.now();
      for (const [a, u] of this.over) if (u <= now) this.over.delete(a);
      while (this.over.size >= REMEMBERED_MAX) this.over.delete(this.over.keys().next().value as string);
    }
    this.over.set(address, until);
  }

  async onModuleDestroy(): Promise<void> {
    this.limiter?.close();
  }
}

/** Counts the request on its address's anonymous limit: next() when it may run, else Retry-After and `refuse`. */
function takeOrRefuse(limit: AnonymousRateLimit, req: Request, res: Response, next: NextFunction, refuse: (retryAfter: number) => void): void {
  limit.take(clientAddress(req)).then((retryAfter) => {
    if (retryAfter === null) return next();
    res.setHeader('Retry-After', String(retryAfter));
    refuse(retryAfter);
  }, next);
}

/** The anonymous limit in front of a page's sign-in (or sign-up) POST: over it, a 429 page with Retry-After. */
@Injectable()
export class AnonymousFormLimitMiddleware implements NestMiddleware {
  constructor(private readonly limit: AnonymousRateLimit) {}

  use(req: Request, res: Response, next: NextFunction): void {
    takeOrRefuse(this.limit, req, res, next, (retryAfter) => {
      for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(k, v);
      messagePage(req, res, 429, 'web.tooManyTitle', 'web.tooMany', { seconds: retryAfter });
    });
  }
}

/**
 * The anonymous limit in front of `POST /oauth/token` and `POST /oauth/revoke`: over it, 429 with
 * Retry-After and the endpoints' JSON error body (RFC 6749 §5.2) with the catalogue's code as `error`
 * (and as `code`, as in the service's problem bodies).
 */
@Injectable()
export class AnonymousClientLimitMiddleware implements NestMiddleware {
  constructor(private readonly limit: AnonymousRateLimit) {}

  use(req: Request, res: Response, next: NextFunction): void {
    takeOrRefuse(this.limit, req, res, next, () => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(429).json({ error: 'rate_limited', error_description: 'too many requests; retry after the time in Retry-After', code: 'rate_limited' });
    });
  }
}

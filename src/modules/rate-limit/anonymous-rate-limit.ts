import { Inject, Injectable, type NestMiddleware, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { clientAddress } from '../../shared/http/client-address';
import { messagePage, PAGE_SECURITY_HEADERS } from '../../shared/web';
import { addressGroup } from './address-group';
import { WindowLimiter } from './window-limiter';

/**
 * The three budgets of an address (issue 35): each is RATE_LIMIT_ANONYMOUS_PER_MINUTE on its own, so a
 * stranger who uses up one (failed client authentications at `/oauth/token`, say) leaves the others to
 * whoever else is behind the same address — a developer's sign-in, a partner's unknown-token 401s.
 * - `form`: the sign-in and sign-up POSTs of the owner and developer pages;
 * - `oauth`: `POST /oauth/token` and `POST /oauth/revoke` whose client authentication fails;
 * - `partner`: partner calls answered 401 (token missing, malformed or unknown).
 */
export const ANONYMOUS_BUDGETS = ['form', 'oauth', 'partner'] as const;
export type AnonymousBudget = (typeof ANONYMOUS_BUDGETS)[number];

/** One counted anonymous call. */
export interface AnonymousAdmission {
  /** null when the call may run, else its Retry-After in whole seconds (at least 1); a refused call is not counted */
  retryAfter: number | null;
  /** the call turned out to have a known identity (valid client credentials): take its point back */
  giveBack(): Promise<void>;
}

const ADMITTED_UNCOUNTED: AnonymousAdmission = { retryAfter: null, giveBack: async () => undefined };

/**
 * CONTRACT §12: calls without a known identity are limited per client address (the peer's, or the one
 * TRUST_PROXY trusts; an IPv6 address by its /64) to RATE_LIMIT_ANONYMOUS_PER_MINUTE, in Redis with
 * REDIS_URL (shared by every instance), else in memory. The decision is the shared window's alone: no
 * instance remembers an address or a token, so a refusal lasts no longer than the Retry-After it
 * names, and nothing a stranger sends can make an instance forget a partner. A known token is never
 * refused for this limit (the partner guard counts only the calls it answers 401), and valid client
 * credentials give their point back (the OAuth endpoints).
 */
@Injectable()
export class AnonymousRateLimit implements OnModuleDestroy {
  private readonly limiter: WindowLimiter | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const limit = config.rateLimitAnonymousPerMinute;
    this.limiter = limit === 0 ? null : new WindowLimiter(config, limit, 'rla');
  }

  get storeReady(): boolean {
    return this.limiter !== null && this.limiter.storeReady;
  }

  /** Counts one anonymous call of `address` on `budget`. The store unreachable: let through (fail open). */
  async take(budget: AnonymousBudget, address: string, nowMs: number = Date.now()): Promise<AnonymousAdmission> {
    if (!this.limiter) return ADMITTED_UNCOUNTED;
    const counted = await this.limiter.takeCounted(`${budget}:${addressGroup(address)}`, nowMs);
    if (counted === null) return ADMITTED_UNCOUNTED;
    const { decision, giveBack } = counted;
    return { retryAfter: decision.allowed ? null : Math.max(1, decision.secondsUntilFree), giveBack };
  }

  async onModuleDestroy(): Promise<void> {
    this.limiter?.close();
  }
}

/** The anonymous limit in front of a page's sign-in (or sign-up) POST: over it, a 429 page with Retry-After. */
@Injectable()
export class AnonymousFormLimitMiddleware implements NestMiddleware {
  constructor(private readonly limit: AnonymousRateLimit) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.limit.take('form', clientAddress(req)).then(({ retryAfter }) => {
      if (retryAfter === null) return next();
      res.setHeader('Retry-After', String(retryAfter));
      for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(k, v);
      messagePage(req, res, 429, 'web.tooManyTitle', 'web.tooMany', { seconds: retryAfter });
    }, next);
  }
}

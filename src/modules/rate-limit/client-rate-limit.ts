import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { WindowLimiter } from './window-limiter';

/** CONTRACT §20 ("Token endpoint"): the calls a registered OAuth client may make to `/oauth/token` and `/oauth/revoke` a minute. */
export const OAUTH_CLIENT_PER_MINUTE = 60;

/**
 * A registered client's own limit (CONTRACT §12, §20): its token and revocation calls count per client, not
 * per address, so a stranger who keeps the address over the anonymous limit cannot stop its code exchange.
 * Shared through Redis like the other windows; the store unreachable, calls are let through (fail open).
 */
@Injectable()
export class OAuthClientRateLimit implements OnModuleDestroy {
  private readonly limiter: WindowLimiter;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limiter = new WindowLimiter(config, OAUTH_CLIENT_PER_MINUTE, 'rlc');
  }

  /** Counts one call of the client: null when it may run, else its Retry-After in whole seconds. */
  async take(clientId: string, nowMs: number = Date.now()): Promise<number | null> {
    const decision = await this.limiter.take(clientId.toLowerCase(), nowMs);
    return decision === null || decision.allowed ? null : Math.max(1, decision.secondsUntilFree);
  }

  onModuleDestroy(): void {
    this.limiter.close();
  }
}

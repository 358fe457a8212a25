import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { RateLimitedError } from '../../shared/domain/errors';

/** CONTRACT §20: the Retry-After of a call refused for too many in flight. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

/**
 * CONTRACT §20 "In flight": at most MAX_IN_FLIGHT_PER_TOKEN requests of one token (or one developer-console
 * session) run at once on this instance — a per-instance cap by the contract, so it is counted in this
 * process. A request holds its place from `enter` until its response closes, whatever ends it: the answer
 * finished, the client went away, the connection was destroyed (a client that does not read, a late failure).
 */
@Injectable()
export class InFlightLimit {
  private readonly running = new Map<string, number>();
  private readonly limit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.maxInFlightPerToken;
  }

  /** Takes a place for `key` until `res` closes, or throws 429 `rate_limited` (Retry-After: 1) when there is none. */
  enter(key: string, res: ServerResponse): void {
    if (!this.tryEnter(key, res)) {
      throw new RateLimitedError(
        IN_FLIGHT_RETRY_AFTER_SECONDS,
        `At most ${this.limit} requests of one token may be in flight at once; retry after the time in Retry-After`,
      );
    }
  }

  /**
   * Takes a place for `key` until `res` closes; false (nothing taken) when its requests in flight are at the
   * limit. A response entered twice (two checks of one request) holds one place.
   */
  tryEnter(key: string, res: ServerResponse): boolean {
    const held = res as ServerResponse & { [IN_FLIGHT]?: true };
    if (held[IN_FLIGHT]) return true;
    const n = this.running.get(key) ?? 0;
    if (n >= this.limit) return false;
    this.running.set(key, n + 1);
    held[IN_FLIGHT] = true;
    const leave = () => {
      const left = (this.running.get(key) ?? 1) - 1;
      if (left <= 0) this.running.delete(key);
      else this.running.set(key, left);
    };
    // 'close' comes once for every response: after its end was written, or when its connection went away
    if (res.closed) leave();
    else res.once('close', leave);
    return true;
  }

  /** Requests holding a place now, over all keys (metrics, and the tests' "nothing left held"). */
  get held(): number {
    let total = 0;
    for (const n of this.running.values()) total += n;
    return total;
  }
}

const IN_FLIGHT = Symbol('in-flight');

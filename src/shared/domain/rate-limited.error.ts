import { DomainError } from './domain-error';

/**
 * 429 `rate_limited` (CONTRACT §4, §8, §12). `retryAfterSeconds` (whole seconds, at least 1) becomes
 * the `Retry-After` header.
 */
export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, detail = 'Too many requests; retry after the time in Retry-After') {
    super('rate_limited', detail);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

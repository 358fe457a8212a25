import { DomainError, RateLimitedError } from '../../../shared/domain/errors';

/**
 * What one developer (and one sign-up) may do, declared once (issue 35: self-service without
 * amplification). The pages, the errors and the tests read these.
 */
export const DEVELOPER_QUOTAS = {
  /** CONTRACT §15: apps per developer */
  apps: 25,
  /** sandbox tokens (new generations) per developer per hour, over all of the developer's apps */
  sandboxTokensPerHour: 20,
  /** webhook endpoints of one developer (all apps, both environments) on one host (ADR 0010) */
  webhookEndpointsPerHost: 10,
  /**
   * deliveries made by hand per developer per hour, over all apps: each **Resend**, **Send test event** and
   * **Recover** on the developer console is one (each makes an endpoint receive again; issue 35 finding 5)
   */
  resendsPerHour: 60,
  /** revisions of one app waiting for review: one; the next is submitted once it is approved */
  pendingRevisionsPerApp: 1,
  /** sign-up emails (confirmation links, or the notice to an email that has an account) per email per hour */
  signupEmailsPerEmailPerHour: 3,
  /** sign-up emails from one client (address, or IPv6 /64) per hour: bulk sign-ups from one client */
  signupEmailsPerClientPerHour: 10,
} as const;

export const QUOTA_WINDOW_MS = 3600_000;

/** How long a sign-up's confirmation link works. */
export const SIGNUP_LINK_TTL_MS = 24 * 3600_000;

/**
 * Developers gone this long are purged with their sandbox organizations: no sign-in for 90 days, and
 * nothing in production (no approved revision of any of their apps, no grant to any of them).
 */
export const DEVELOPER_GONE_AFTER_MS = 90 * 24 * 3600_000;

/** Which hourly quota of DEVELOPER_QUOTAS a refusal concerns (the pages name it in the reader's language). */
export type HourlyQuota = 'signupEmailsPerEmailPerHour' | 'signupEmailsPerClientPerHour' | 'sandboxTokensPerHour' | 'resendsPerHour';

/** A quota per hour is used up: 429 with the time until the oldest use leaves the hour. */
export class HourlyQuotaError extends RateLimitedError {
  constructor(
    retryAfterSeconds: number,
    what: string,
    readonly quota: HourlyQuota,
  ) {
    super(retryAfterSeconds, `${what}; try again in ${minutesUntil(retryAfterSeconds)} minutes`);
  }
}

const minutesUntil = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/** The catalogue key (developers/views/messages.ts: `quota_<quota>`) and parameters of a refusal as a form shows it. */
export function quotaError(err: HourlyQuotaError): { key: string; params: Record<string, number> } {
  return { key: `developers.quota_${err.quota}`, params: { max: DEVELOPER_QUOTAS[err.quota], minutes: minutesUntil(err.retryAfterSeconds) } };
}

/** CONTRACT §15: at most 25 apps per developer. */
export class TooManyAppsError extends DomainError {
  constructor() {
    super('resource_conflict', `A developer has at most ${DEVELOPER_QUOTAS.apps} apps`);
  }
}

/** A revision of this app waits for review: no second one until it is approved. */
export class RevisionPendingError extends DomainError {
  constructor() {
    super('resource_conflict', 'A revision of this app is waiting for review. Submit the next one once the operator has approved it.');
  }
}

/** When the oldest of the uses within the hour leaves it, in seconds from `now` (at least 1). */
export function secondsUntilFree(oldestInWindow: Date, now: Date): number {
  return Math.max(1, Math.ceil((oldestInWindow.getTime() + QUOTA_WINDOW_MS - now.getTime()) / 1000));
}

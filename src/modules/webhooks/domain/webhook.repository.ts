import type { Environment } from '../../../shared/domain/caller-context';
import type { Transaction } from '../../../shared/domain/transaction';
import type { HostScope } from './endpoint-limits';

export interface ClaimedDelivery {
  organizationId: string;
  id: string;
  eventId: string;
  /** the endpoint's id: attempts are recorded per endpoint too (CONTRACT §9, lifecycle) */
  endpointId?: string;
  attempt: number;
  body: string;
  url: string;
  secret: string;
  /** The endpoint's secrets before its last rotations while they still sign, newest first (CONTRACT §9, §21). */
  previousSecrets?: readonly string[];
}

/** An attempt's outcome: delivered, retry in `retryInMs`, or given up (`retryInMs` null). */
export interface AttemptOutcome {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
  attemptedAt: Date;
  retryInMs: number | null;
  /** The vetted address the attempt went to (WebhookSender's SendResult.address), when one was chosen. */
  address?: string;
}

/** How many deliveries a recordAttempts statement finished: delivered (2xx), or failed (given up). */
export interface FinishedDeliveries {
  delivered: number;
  failed: number;
}

/** An endpoint as the webhook tools need it (never a secret). */
export interface EndpointState {
  id: string;
  appId: string;
  environment: Environment;
  disabled: boolean;
}

/** CONTRACT §9: an endpoint that answered no attempt with 2xx for this long while attempts were made is disabled. */
export const DISABLE_AFTER_HOURS = 120;

/** Port: endpoints, and the outbox → deliveries → attempts pipeline (CONTRACT §9). */
export abstract class WebhookRepository {
  abstract appExists(appId: string): Promise<boolean>;
  /**
   * Inserts an endpoint unless its app and environment already have `perAppEnvironment` active endpoints,
   * or its scope (`hostScope`: a developer's apps) already has `hostScope.max` active endpoints on its
   * host. Counted under PostgreSQL locks taken in `tx` (the scope's, then the app and environment's), so
   * that concurrent registrations on any number of instances never exceed either cap.
   */
  abstract insertEndpoint(
    tx: Transaction,
    endpoint: { id: string; appId: string; environment: string; url: string; host: string; secret: string },
    limits: { perAppEnvironment: number; hostScope?: HostScope },
  ): Promise<'inserted' | 'app_full' | 'host_full'>;
  /**
   * Fans undispatched outbox events out into one delivery per endpoint of their app and environment
   * (a disabled endpoint's stay pending until it is enabled), and marks them dispatched (FOR UPDATE
   * SKIP LOCKED: instances never take the same row).
   */
  abstract fanOut(limit: number): Promise<number>;
  /**
   * Leases due deliveries for `leaseMs` (SKIP LOCKED) and counts the attempt; returns them with what to
   * send. Fair across endpoints (CONTRACT §9: a bad endpoint delays only itself): each enabled endpoint
   * gets at most `perEndpoint` leases at a time, counting those already held by any dispatcher of any
   * instance (WEBHOOK_ENDPOINT_CONCURRENCY). Fair across apps (issue 35: one app's burst does not delay
   * another app's first attempt): the apps with the fewest sends in flight are served first, and no app
   * is given more than `perApp` sends in flight; oldest due first within an app.
   */
  abstract claimDue(limit: number, leaseMs: number, perEndpoint?: number, perApp?: number): Promise<ClaimedDelivery[]>;
  /**
   * Milliseconds until the earliest pending delivery of an enabled endpoint can be claimed (its due time, or
   * the end of its lease; 0 or less: now), among the NEXT_DUE_LOOK due first; null when there is none. An
   * idle dispatcher sleeps until then instead of polling (issue 47).
   */
  abstract nextDueInMs(): Promise<number | null>;
  /** Tells every instance's dispatcher that work was committed: a NOTIFY of its own, outside any write. */
  abstract notifyWork(): Promise<void>;
  /**
   * Extends the lease of a delivery still being sent, while it is still at this attempt and undecided.
   * False when the lease was lost (expired and claimed again, or decided).
   */
  abstract renewLease(delivery: ClaimedDelivery, leaseMs: number): Promise<boolean>;
  /**
   * Records attempts and their outcomes in one statement. Each outcome is applied only while its
   * delivery is still at that attempt: a late recorder whose lease expired and was claimed again by
   * another round does not overwrite that newer claim. An endpoint that has answered no attempt with
   * 2xx for DISABLE_AFTER_HOURS (by the attempts' `attemptedAt`, i.e. the Clock) is disabled.
   * Returns how many deliveries it finished (a late record that changed nothing counts nothing).
   */
  abstract recordAttempts(attempts: ReadonlyArray<{ delivery: ClaimedDelivery; outcome: AttemptOutcome }>): Promise<FinishedDeliveries>;

  /** One attempt (tests, tools): recordAttempts of one. */
  recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<FinishedDeliveries> {
    return this.recordAttempts([{ delivery, outcome }]);
  }

  /**
   * Enables an endpoint again and makes its pending deliveries due at once. False when there is no such
   * endpoint.
   */
  abstract enableEndpoint(endpointId: string): Promise<boolean>;
  /** An app's active endpoints, oldest first, with whether each is disabled (never a secret). */
  abstract endpointsOf(appId: string): Promise<Array<{ id: string; url: string; environment: Environment; disabled: boolean }>>;
  /**
   * Deletes up to `limit` events created before `createdBefore` of which nothing is pending any more,
   * with their deliveries and attempts, in one short statement; returns how many events went.
   */
  abstract purgeBefore(createdBefore: Date, limit: number): Promise<number>;
  /** The active endpoints of these apps (the developer console's list), oldest first; never a secret. */
  abstract endpointsOfApps(appIds: string[]): Promise<Array<{ id: string; appId: string; url: string; environment: string; disabled: boolean }>>;
  /** An active endpoint, or null. */
  abstract endpoint(endpointId: string): Promise<EndpointState | null>;
  /**
   * CONTRACT §9 Rotate secret: `secret` becomes the endpoint's secret, the one it replaces keeps signing
   * beside it for `overlapHours` (by the database's clock, the one the claim reads); the one before that
   * signs no more (never three). At most `quota.max` rotations within `quota.windowHours` (CONTRACT §20),
   * counted under the endpoint's row lock: beyond, nothing changes and the answer is the seconds until the
   * oldest leaves the window. Null when there is no such active endpoint.
   */
  abstract rotateSecret(
    endpointId: string,
    secret: string,
    overlapHours: number,
    quota: { max: number; windowHours: number },
  ): Promise<{ rotated: true } | { rotated: false; retryAfterSeconds: number } | null>;
  /**
   * CONTRACT §9 Recover: every event of the endpoint's app and environment created at or after `since`
   * (but `webhook.test` events) becomes a new delivery to this endpoint, due at once, in one transaction
   * with the endpoint row locked (two recoveries of one endpoint take turns). Null when there is no such
   * active endpoint; `disabled` (nothing written) when the endpoint is disabled.
   */
  abstract recover(endpointId: string, since: Date): Promise<{ events: number } | 'disabled' | null>;
  /**
   * CONTRACT §9 Test: stores `event` (a `webhook.test`, of no organization: never in a feed, never fanned
   * out) with one delivery, to this endpoint, due at once. False when there is no such active endpoint.
   */
  abstract sendTest(endpointId: string, event: { id: string; type: string; body: string; createdAt: Date }): Promise<boolean>;
  /** Deactivates an endpoint of the app and drops its pending deliveries; false when the app has no such active endpoint. */
  abstract removeEndpoint(tx: Transaction, appId: string, endpointId: string, at: Date): Promise<boolean>;
}

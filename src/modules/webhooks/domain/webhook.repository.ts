import type { Transaction } from '../../../shared/domain/transaction';

export interface ClaimedDelivery {
  organizationId: string;
  id: string;
  eventId: string;
  attempt: number;
  body: string;
  url: string;
  secret: string;
}

/** Port: endpoints, and the outbox → deliveries → attempts pipeline (CONTRACT §9). */
export abstract class WebhookRepository {
  abstract appExists(appId: string): Promise<boolean>;
  abstract insertEndpoint(tx: Transaction, endpoint: { id: string; appId: string; environment: string; url: string; secret: string }): Promise<void>;
  /**
   * Fans undispatched outbox events out into one delivery per active endpoint of their app and
   * environment, and marks them dispatched (FOR UPDATE SKIP LOCKED: instances never take the same row).
   */
  abstract fanOut(limit: number): Promise<number>;
  /**
   * Leases due deliveries for `leaseMs` (SKIP LOCKED) and counts the attempt; returns them with what to
   * send. Fair across endpoints (CONTRACT §9: a bad endpoint delays only itself): each endpoint gets at
   * most `perEndpoint` leases at a time, counting those already held by any dispatcher, oldest due first.
   */
  abstract claimDue(limit: number, leaseMs: number, perEndpoint?: number): Promise<ClaimedDelivery[]>;
  /**
   * Extends the lease of a delivery still being sent, while it is still at this attempt and undecided.
   * False when the lease was lost (expired and claimed again, or decided).
   */
  abstract renewLease(delivery: ClaimedDelivery, leaseMs: number): Promise<boolean>;
  /**
   * Records an attempt and its outcome: delivered, retry at `retryInMs`, or given up (`retryInMs` null).
   * The outcome is applied only while the delivery is still at this attempt: a late recorder whose lease
   * expired and was claimed again by another round does not overwrite that newer claim.
   */
  abstract recordAttempt(
    delivery: ClaimedDelivery,
    outcome: { ok: boolean; status?: number; error?: string; durationMs: number; attemptedAt: Date; retryInMs: number | null },
  ): Promise<void>;
  /** The active endpoints of these apps (the developer console's list), oldest first; never a secret. */
  abstract endpointsOf(appIds: string[]): Promise<Array<{ id: string; appId: string; url: string; environment: string }>>;
  /** Deactivates an endpoint of the app and drops its pending deliveries; false when the app has no such active endpoint. */
  abstract removeEndpoint(tx: Transaction, appId: string, endpointId: string, at: Date): Promise<boolean>;
}

import type { Transaction } from '../../../../shared/domain/transaction';
import type { Scope } from '../../../../shared/domain/scopes';
import type { GrantEvent, GrantRef } from './grant-events';

export interface NewGrant {
  id: string;
  organizationId: string;
  appId: string;
  ownerUserId: string;
  accountIds: string[];
  scopes: Scope[];
  grantedAt: Date;
  expiresAt: Date;
  /** set when its `grant.expiring` is written with it (a grant of 14 days or less, CONTRACT §18) */
  expiringNotifiedAt: Date | null;
}

export interface GrantRecord {
  id: string;
  organizationId: string;
  appId: string;
}

/** A grant whose end the expiry scan claimed; `told` is false when it had ended before it expired (no event is due). */
export interface ExpiredGrant extends GrantRef {
  expiresAt: Date;
  told: boolean;
}

/** A grant whose `grant.expiring` the scan claimed; `told` is false when it is no longer in force (no event is due). */
export interface ExpiringGrant extends GrantRef {
  expiresAt: Date;
  told: boolean;
}

/**
 * Port: customer grants and the production access tokens issued under them, and the claims that make
 * each grant event happen once (CONTRACT §18): a grant's end (`grant.revoked`, whatever the reason) and
 * its `grant.expiring` are each claimed by the one statement that changes the grant's row, under its
 * row lock, so a revocation, a supersession and the expiry scans of any number of instances never both
 * claim one.
 */
export abstract class GrantRepository {
  /**
   * Marks the grant of (organization, app) not yet superseded, if any, as superseded at `at`. Returns it
   * when it was in force until now (its end is claimed: `grant.revoked` with reason superseded is due).
   */
  abstract supersedeCurrent(tx: Transaction, organizationId: string, appId: string, at: Date): Promise<GrantRef[]>;
  /** Stores a grant and its selected accounts; it becomes the one in force for (organization, app). */
  abstract insert(tx: Transaction, grant: NewGrant): Promise<void>;
  abstract find(tx: Transaction, grantId: string): Promise<GrantRecord | null>;
  /**
   * Revokes the grant (keeping the first revocation time). Null when there is no such grant; else
   * `ended` is the grant when it was in force until now (its end is claimed: `grant.revoked` is due).
   */
  abstract revoke(tx: Transaction, grantId: string, at: Date): Promise<{ ended: GrantRef | null } | null>;
  /** Stores a production token's hash, bound to the grant and to the app revision approved now. */
  abstract insertToken(
    tx: Transaction,
    token: { tokenHash: string; organizationId: string; appId: string; grantId: string; appRevisionId: string | null },
  ): Promise<void>;
  /**
   * CONTRACT §15, the demo company: whether the organization is a demo company, and whether it is the
   * demo company of the developer who made the app (the only organization where the app needs no
   * approved revision, and the only app such an organization grants).
   */
  abstract demoStanding(tx: Transaction, organizationId: string, appId: string): Promise<{ organizationIsDemo: boolean; developersOwn: boolean }>;
  /** Writes the events to the webhook outbox (environment production), in the caller's transaction. */
  abstract insertEvents(tx: Transaction, events: readonly GrantEvent[]): Promise<void>;
  /**
   * Claims the end of up to `limit` grants that expired at or before `now` and whose end nobody has
   * claimed (SKIP LOCKED: instances scanning at once take different rows, and a row another takes is
   * re-checked under its lock, so each is claimed once).
   */
  abstract claimExpired(tx: Transaction, now: Date, limit: number): Promise<ExpiredGrant[]>;
  /**
   * Claims the `grant.expiring` of up to `limit` grants whose end is not claimed and that expire at or
   * before `until`, as claimExpired does.
   */
  abstract claimExpiring(tx: Transaction, now: Date, until: Date, limit: number): Promise<ExpiringGrant[]>;
}

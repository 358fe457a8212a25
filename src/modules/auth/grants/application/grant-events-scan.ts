import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { type PeriodicJob, Scheduler } from '../../../../shared/domain/scheduler';
import { EXPIRING_NOTICE_MS, grantExpiringEvent, grantRevokedEvent } from '../domain/grant-events';
import { GrantRepository } from '../domain/grant.repository';

/**
 * How often an instance looks for grants that expired or come within the notice period: CONTRACT §18
 * asks for `grant.revoked` within 5 minutes after an expiry, so once a minute keeps that bound (also while
 * a scan waits for its turn) at two transactions a minute for an idle instance (issue 47). An empty look
 * is two probes of small partial indexes (grants_end_due_idx, grants_expiring_due_idx).
 */
export const GRANT_SCAN_INTERVAL_MS = 60_000;
/** Grants claimed per transaction. */
export const GRANT_SCAN_BATCH = 100;

/** What one scan told: grants expired (`grant.revoked`, reason expired) and grants expiring (`grant.expiring`). */
export interface GrantScanResult {
  expired: number;
  expiring: number;
}

/**
 * CONTRACT §18: tells an app of its grants' expiry (`grant.revoked`, reason expired, `at` the expiry)
 * and, 14 days ahead, of their coming end (`grant.expiring`), through the webhook outbox, on the
 * partner listener of every instance. Each batch claims its grants and writes their events in one
 * transaction, so an event is written exactly once however many instances scan at once (the claim
 * is a row's column, see GrantRepository), and not at all when the transaction fails (the next scan
 * claims again). "Now" is the Clock's.
 */
@Injectable()
export class GrantEventsScan implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(GrantEventsScan.name);
  private job: PeriodicJob | null = null;

  constructor(
    private readonly grants: GrantRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.periodically(
      GRANT_SCAN_INTERVAL_MS,
      (stopping) => this.runOnce(GRANT_SCAN_BATCH, stopping),
      (err) => this.logger.warn({ err }, 'grant events scan failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    this.job = null;
  }

  /** One scan: every grant due, batch by batch, until none is left (or `stopping()`: the instance stops). */
  async runOnce(batch = GRANT_SCAN_BATCH, stopping: () => boolean = () => false): Promise<GrantScanResult> {
    const result: GrantScanResult = { expired: 0, expiring: 0 };
    // expiries first: a grant that expired is not told that it is expiring
    for (;;) {
      const { claimed, told } = await this.transactions.run(async (m) => {
        const now = this.clock.now();
        const expired = await this.grants.claimExpired(m, now, batch);
        const due = expired.filter((g) => g.told);
        await this.grants.insertEvents(
          m,
          due.map((g) => grantRevokedEvent(randomUUID(), g, 'expired', g.expiresAt, now)),
        );
        return { claimed: expired.length, told: due.length };
      });
      result.expired += told;
      if (claimed < batch || stopping()) break;
    }
    for (;;) {
      const { claimed, told } = await this.transactions.run(async (m) => {
        const now = this.clock.now();
        const expiring = await this.grants.claimExpiring(m, now, new Date(now.getTime() + EXPIRING_NOTICE_MS), batch);
        const due = expiring.filter((g) => g.told);
        await this.grants.insertEvents(
          m,
          due.map((g) => grantExpiringEvent(randomUUID(), g, g.expiresAt, now)),
        );
        return { claimed: expiring.length, told: due.length };
      });
      result.expiring += told;
      if (claimed < batch || stopping()) break;
    }
    return result;
  }
}

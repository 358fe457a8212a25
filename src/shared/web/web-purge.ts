import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { pacedBatches } from '../database/paced-batches';
import { Sql } from '../database/sql';
import { Clock } from '../domain/clock';
import { type PeriodicJob, Scheduler } from '../domain/scheduler';
import { SIGN_IN_WINDOW_MS } from './sign-in-lockout';

const BATCH = 500;
const PURGE_EVERY_MS = 5 * 60_000;

/** One batch of expired rows, locked rows skipped (another instance's purge, or a sign-in holding its pair). */
const PURGES = {
  sessions: `DELETE FROM web_sessions WHERE ctid IN (
      SELECT ctid FROM web_sessions WHERE expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
  failures: `DELETE FROM sign_in_failures WHERE ctid IN (
      SELECT ctid FROM sign_in_failures WHERE failed_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
  // a pair no attempt touched within the window has no failure that still counts; its lockout, if any, has ended
  lockouts: `DELETE FROM sign_in_lockouts WHERE ctid IN (
      SELECT ctid FROM sign_in_lockouts WHERE updated_at <= $1 AND (locked_until IS NULL OR locked_until <= $3)
       LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
} as const;

/**
 * CONTRACT §12: what the unauthenticated routes write is purged once expired — sessions past their
 * expiry, sign-in failures out of the 15-minute window, lockouts that have ended and have no failure
 * left — in batches of 500, each its own statement, so a purge never holds many locks or a long
 * transaction.
 */
@Injectable()
export class WebPurge {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  /** One purge; `stopping` ends it after the current batch (the instance is stopping). */
  async purgeExpired(stopping: () => boolean = () => false): Promise<{ sessions: number; failures: number; lockouts: number }> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
    return {
      sessions: await this.drain(PURGES.sessions, stopping, [now]),
      failures: await this.drain(PURGES.failures, stopping, [windowStart]),
      lockouts: await this.drain(PURGES.lockouts, stopping, [windowStart], [now]),
    };
  }

  /** Batches of one purge statement until one comes back short, paced as the other purges are (pacedBatches). */
  private drain(sql: string, stopping: () => boolean, before: unknown[], after: unknown[] = []): Promise<number> {
    // straight on the pool: TypeORM's query() answers a DELETE with [rows, count], not the rows
    return pacedBatches(BATCH, async (size) => (await this.sql.query(sql, [...before, size, ...after])).length, stopping);
  }
}

/** Runs the purge every 5 minutes on the partner listener of every instance (instances skip each other's locked rows). */
@Injectable()
export class WebPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebPurgeScheduler.name);
  private job: PeriodicJob | null = null;

  constructor(
    private readonly purge: WebPurge,
    private readonly scheduler: Scheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.periodically(
      PURGE_EVERY_MS,
      (stopping) => this.purge.purgeExpired(stopping),
      (err) => this.logger.warn({ err }, 'purge of expired sessions and sign-in failures failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    this.job = null;
  }
}

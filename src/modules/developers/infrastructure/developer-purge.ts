import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { pacedBatches } from '../../../shared/database/paced-batches';
import { Sql } from '../../../shared/database/sql';
import { managerOf, Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type PeriodicJob, Scheduler } from '../../../shared/domain/scheduler';
import { purgeOrder } from '../../../shared/module-facts';
import { AppsSql } from '../../auth/apps/sql';
import { GrantsSql } from '../../auth/grants/sql';
import { DEVELOPER_GONE_AFTER_MS, QUOTA_WINDOW_MS } from '../domain/developer-quotas';

const BATCH = 500;
/** Developers purged per transaction: each takes its apps, sandbox organizations and demo company with it. */
const DEVELOPERS_PER_BATCH = 5;
const PURGE_EVERY_MS = 60 * 60_000;

/** One batch of rows past their time, locked rows skipped (another instance's purge, or a sign-up being confirmed). */
const PURGES = {
  // a sign-up never confirmed: its link has expired (a notice's row once out of the hour it counts in)
  signups: `DELETE FROM developer_signups WHERE ctid IN (
      SELECT ctid FROM developer_signups WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
  quotaEvents: `DELETE FROM developer_quota_events WHERE ctid IN (
      SELECT ctid FROM developer_quota_events WHERE at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
} as const;

/**
 * The developer's own organizations: the sandbox ones (their sandbox projects come with a mandate for the
 * app) and the demo company (CONTRACT §15: a grant to it is the developer's trial, never a customer).
 */
const SANDBOXES = `SELECT s.sandbox_organization_id FROM developer_apps s WHERE s.developer_id = d.id AND s.sandbox_organization_id IS NOT NULL
                   UNION ALL SELECT d.demo_organization_id WHERE d.demo_organization_id IS NOT NULL`;

/**
 * A developer gone (DEVELOPER_GONE_AFTER_MS): no sign-in since `$1`, and nothing in production — none
 * of the developer's apps ever had a revision approved, and no grant or mandate names any of them
 * outside the developer's own sandbox organizations.
 * Locked, skipping a developer being signed in or making an app (both lock the row).
 */
const GONE = `SELECT d.id FROM developers d
  WHERE d.last_sign_in_at < $1
    AND NOT EXISTS (SELECT 1 FROM developer_apps da WHERE da.developer_id = d.id AND da.app_id IS NOT NULL
                      AND (${AppsSql.everApproved('da.app_id')}
                           OR ${GrantsSql.anyForAppOutside('da.app_id', SANDBOXES)}))
  ORDER BY d.last_sign_in_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED`;

/**
 * Issue 35: nothing a stranger makes is kept for ever. Sign-ups never confirmed go once their link has
 * expired (24 h), quota records once out of their hour, and developers gone 90 days go with their
 * apps, sandbox organizations and everything in them. Paced as the other purges (pacedBatches): a
 * backlog is worked off at half speed.
 */
@Injectable()
export class DeveloperPurge {
  private readonly logger = new Logger('developers');

  constructor(
    private readonly sql: Sql,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** One run; `stopping` ends it after the current batch (the instance is stopping). */
  async purge(stopping: () => boolean = () => false): Promise<{ signups: number; quotaEvents: number; developers: number }> {
    const now = this.clock.now();
    const signups = await pacedBatches(BATCH, async (size) => (await this.sql.query(PURGES.signups, [now, size])).length, stopping);
    const quotaEvents = await pacedBatches(
      BATCH,
      async (size) => (await this.sql.query(PURGES.quotaEvents, [new Date(now.getTime() - QUOTA_WINDOW_MS), size])).length,
      stopping,
    );
    const goneSince = new Date(now.getTime() - DEVELOPER_GONE_AFTER_MS);
    const developers = await pacedBatches(
      DEVELOPERS_PER_BATCH,
      (size) => this.transactions.run((tx) => this.purgeGone(managerOf(tx), goneSince, size)),
      stopping,
    );
    if (developers > 0) this.logger.log({ developers }, 'purged developers gone 90 days, with their apps and sandbox organizations');
    return { signups, quotaEvents, developers };
  }

  /** Up to `size` gone developers, in one transaction: their organizations and apps first, then their own rows. */
  private async purgeGone(m: EntityManager, goneSince: Date, size: number): Promise<number> {
    const gone: Array<{ id: string }> = await m.query(GONE, [goneSince, size]);
    if (gone.length === 0) return 0;
    const ids = gone.map((g) => g.id);
    const apps: Array<{ app_id: string | null; sandbox_organization_id: string | null; sandbox_app_id: string | null }> = await m.query(
      `SELECT app_id, sandbox_organization_id, sandbox_app_id FROM developer_apps WHERE developer_id = ANY($1::uuid[])`,
      [ids],
    );
    const demos: Array<{ demo_organization_id: string | null }> = await m.query(`SELECT demo_organization_id FROM developers WHERE id = ANY($1::uuid[])`, [
      ids,
    ]);
    // their sandbox organizations and demo companies (CONTRACT §15), with the demo identity that owns it (organizations' part)
    const organizationIds = [...apps.map((a) => a.sandbox_organization_id), ...demos.map((d) => d.demo_organization_id)].filter((x): x is string => x !== null);
    const appIds = apps.flatMap((a) => [a.app_id, a.sandbox_app_id]).filter((x): x is string => x !== null);
    // every module's part (its facts.ts), dependants first: what refers to organizations and apps goes before them
    for (const { parts } of purgeOrder()) {
      for (const statement of parts.organizations ?? []) await m.query(statement, [organizationIds]);
      for (const statement of parts.apps ?? []) await m.query(statement, [appIds]);
    }
    await m.query(`DELETE FROM request_log WHERE app_id = ANY($1::uuid[])`, [appIds]);
    await m.query(`DELETE FROM developer_apps WHERE developer_id = ANY($1::uuid[])`, [ids]);
    await m.query(`DELETE FROM developer_quota_events WHERE developer_id = ANY($1::uuid[])`, [ids]);
    await m.query(`DELETE FROM developers WHERE id = ANY($1::uuid[])`, [ids]);
    return gone.length;
  }
}

/**
 * Runs the purge every hour on the partner listener of every instance (instances skip each other's
 * locked rows); no second run while one runs, and a stopping instance ends its run after the batch.
 */
@Injectable()
export class DeveloperPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('developers');
  private job: PeriodicJob | null = null;

  constructor(
    private readonly purge: DeveloperPurge,
    private readonly scheduler: Scheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.periodically(
      PURGE_EVERY_MS,
      (stopping) => this.purge.purge(stopping),
      (err) => this.logger.warn({ err }, 'purge of unconfirmed sign-ups and developers gone failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    this.job = null;
  }
}

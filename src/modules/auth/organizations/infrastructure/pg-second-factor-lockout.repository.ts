import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { poolConnectionFor } from '../../../../shared/database/host-selection';
import { afterRollback } from '../../../../shared/database/transactions';
import { LOCKOUT_DURATION_MS, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, SecondFactorLockoutRepository } from '../domain/second-factor-lockout.repository';

type Query = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * Where the failure is committed depends on the store:
 * - PostgreSQL: at once, on a connection of a small pool of its own (the main pool may be exhausted by
 *   calls queued on the same owner's row lock), while the failing call still holds that owner's row
 *   lock — so the next attempt on any instance, which waits for that lock, sees it.
 * - PGlite (one session): right after the failing call's rollback, on the same session, before the
 *   session is handed to anyone else (Transactions' after-rollback hook).
 */
@Injectable()
export class PgSecondFactorLockoutRepository extends SecondFactorLockoutRepository implements OnModuleDestroy {
  private pool: Pool | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  async lockedUntil(tx: EntityManager, userId: string, now: Date): Promise<Date | null> {
    const rows: Array<{ locked_until: Date }> = await tx.query(`SELECT locked_until FROM second_factor_lockouts WHERE user_id = $1 AND locked_until > $2`, [
      userId,
      now,
    ]);
    return rows[0] ? new Date(rows[0].locked_until) : null;
  }

  async recordFailure(tx: EntityManager, userId: string, now: Date, onLockout: (until: Date) => void): Promise<void> {
    if (this.config.database.kind === 'postgres') {
      const client = await this.ownPool().connect();
      try {
        await client.query('BEGIN');
        await this.record((sql, params) => client.query(sql, params).then((r) => r.rows), userId, now, onLockout);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      return;
    }
    const hook = (m: EntityManager) => this.record((sql, params) => m.query(sql, params), userId, now, onLockout);
    // a transaction not of Transactions.run: its own transaction queued behind the caller's
    if (!afterRollback(tx, hook)) void this.dataSource.transaction(hook).catch(() => undefined);
  }

  private async record(query: Query, userId: string, now: Date, onLockout: (until: Date) => void): Promise<void> {
    const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
    await query(`DELETE FROM second_factor_failures WHERE user_id = $1 AND failed_at <= $2`, [userId, since]);
    await query(`INSERT INTO second_factor_failures (user_id, failed_at) VALUES ($1, $2)`, [userId, now]);
    // failures before the end of an earlier lockout were paid for by it
    const [{ n }] = (await query(
      `SELECT count(*)::int AS n FROM second_factor_failures f
        WHERE f.user_id = $1 AND f.failed_at > $2
          AND f.failed_at > coalesce((SELECT locked_until FROM second_factor_lockouts WHERE user_id = $1), '-infinity')`,
      [userId, since],
    )) as Array<{ n: number }>;
    if (n < LOCKOUT_FAILURES) return;
    const until = new Date(now.getTime() + LOCKOUT_DURATION_MS);
    await query(
      `INSERT INTO second_factor_lockouts (user_id, locked_until) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET locked_until = excluded.locked_until`,
      [userId, until],
    );
    onLockout(until);
  }

  private ownPool(): Pool {
    if (this.config.database.kind !== 'postgres') throw new Error('no PostgreSQL server configured');
    if (!this.pool) {
      // the data source's host selection (several hosts, CONTRACT §16)
      this.pool = new Pool({ ...poolConnectionFor(this.config.database.url), max: 2, connectionTimeoutMillis: 5000, application_name: 'partner-api-lockout' });
      this.pool.on('error', () => undefined); // an idle connection lost: the next connect() opens a new one
    }
    return this.pool;
  }

  async onModuleDestroy(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }
}

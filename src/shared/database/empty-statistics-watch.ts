import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type PeriodicJob, Scheduler } from '../domain/scheduler';
import { PgPool } from './pg-pool';
import { Sql } from './sql';

/** How often the statistics are looked at. */
export const EMPTY_STATISTICS_WATCH_MS = 5_000;
/**
 * Statements the pool must have served since the last look for the next one to happen (issue 47: an idle
 * instance costs nothing). A table outgrows its statistics under load — thousands of statements — never
 * through the few of the background jobs of an idle instance; another instance's load is its own watch's.
 */
export const EMPTY_STATISTICS_MIN_STATEMENTS = 100;
/** Live rows a table must hold before it is looked at (autovacuum's base analyze threshold). */
const MIN_LIVE_ROWS = 50;

/**
 * This schema's tables that hold at least twice the rows their statistics say (and at least $1):
 * analyzed while empty (`reltuples = 0`) or small and filled quickly since. Live rows are counted by
 * the statistics system as rows are inserted and deleted, so updates alone never select a table.
 */
const OUTGROWN_SQL = `SELECT format('%I.%I', s.schemaname, s.relname) AS name
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
 WHERE s.schemaname = current_schema() AND s.n_live_tup >= greatest(2 * c.reltuples, $1)
 ORDER BY s.relname`;

/**
 * Analyzes, within seconds, a table that has outgrown its statistics: taken while it was empty, or
 * while it was small, and it has at least doubled since.
 *
 * Why: the pooled connections live long and keep their plans — the foreign-key checks' too — until
 * the statistics of a table change. A table analyzed while empty (`VACUUM ANALYZE` on a new
 * deployment; the yardstick does it between scenarios) gets plans made for an empty table: the check
 * of each journal line against `journal_entries` became a sequential scan of all entries, so a
 * posting cost more with every entry (bench/RESULTS.md, "Figures behind code comments") until autovacuum's next analyze of
 * the table, up to `autovacuum_naptime` (a minute) later. New statistics invalidate those plans on
 * every connection. A large table never doubles quickly; it is left to autovacuum.
 *
 * Runs on the partner listener of each instance, on PostgreSQL only, and looks only when the instance's pool
 * served EMPTY_STATISTICS_MIN_STATEMENTS since the last look; `ANALYZE (SKIP_LOCKED)` skips a
 * table another instance (or autovacuum) is analyzing. It needs the role that owns the tables (the one
 * that runs the migrations); for another role PostgreSQL skips the table with a warning.
 */
@Injectable()
export class EmptyStatisticsWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('database-statistics');
  private job: PeriodicJob | null = null;
  /** Checkouts of the pool's connections (each statement outside a transaction, each transaction) since the last look. */
  private served = 0;
  private readonly count = () => void this.served++;

  constructor(
    private readonly sql: Sql,
    private readonly pgPool: PgPool,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.database.kind !== 'postgres') return;
    this.pool().on('acquire', this.count);
    this.job = this.scheduler.periodically(
      EMPTY_STATISTICS_WATCH_MS,
      async () => {
        if (this.served < EMPTY_STATISTICS_MIN_STATEMENTS) return;
        this.served = 0;
        await this.runOnce();
      },
      (err) => this.logger.debug({ err }, 'looking for tables that outgrew their statistics failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    this.job = null;
    this.pool().off('acquire', this.count);
  }

  private pool(): PgPool['driver'] {
    return this.pgPool.driver;
  }

  /** Analyzes each table found; returns their names (schema-qualified, quoted where needed). */
  async runOnce(): Promise<string[]> {
    const tables = await this.sql.query<{ name: string }>(OUTGROWN_SQL, [MIN_LIVE_ROWS]);
    for (const { name } of tables) {
      await this.sql.query(`ANALYZE (SKIP_LOCKED) ${name}`, []);
      this.logger.debug({ table: name }, 'analyzed a table that outgrew its statistics');
    }
    return tables.map((t) => t.name);
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { pacedBatches } from '../../../shared/database/paced-batches';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type Repetition, Scheduler } from '../../../shared/domain/scheduler';
import type { ObservedLocals } from '../../../shared/http/observed-locals';
import { DeveloperRepository, type LoggedCall } from '../domain/developer.repository';

/** At most this many calls wait for their insert; beyond it new ones are dropped and counted (never a request delayed). */
export const REQUEST_LOG_QUEUE_LIMIT = 10_000;
/** Calls per insert statement. */
const BATCH = 500;
/** How long a call may wait to be batched with the next ones. */
const FLUSH_DELAY_MS = 200;
/** How often an instance purges entries past REQUEST_LOG_RETENTION_DAYS, and the entries per purge statement. */
export const REQUEST_LOG_PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1000;
const DAY_MS = 86_400_000;
const PATH_MAX = 2000;

type CompletedRequest = IncomingMessage & { caller?: { appId: string; environment: string }; id?: string; originalUrl?: string; ip?: string };

/**
 * The developer console's request log (CONTRACT §15): every partner call of a known app, recorded OFF the
 * request's path. The partner listener's completion hook calls `record` once the response has finished;
 * it only queues (a bounded array: when full, the call is dropped and counted,
 * `partner_request_log_dropped_total`). A background flush inserts the queue in batches of one statement.
 * A call without a known token has no caller (the partner guard sets it) and is not logged: a 401 for a
 * token that names no app reaches no developer. REQUEST_LOG_RETENTION_DAYS=0 turns the log off.
 * Entries older than the retention are purged in paced batches by every instance.
 */
@Injectable()
export class RequestLogRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('request-log');
  private queue: LoggedCall[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private dropped = 0;
  private purgeTimer: Repetition | null = null;
  private purging: Promise<number> | null = null;
  private stopping = false;
  readonly enabled: boolean;

  constructor(
    private readonly repo: DeveloperRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.enabled = config.requestLogRetentionDays > 0;
  }

  /** The completion hook (shared/logging http-logger): queues the finished call of a known app. */
  readonly record = (req: CompletedRequest, res: ServerResponse, durationMs: number): void => {
    const caller = req.caller;
    if (!caller || !this.enabled) return;
    if (this.queue.length >= REQUEST_LOG_QUEUE_LIMIT) {
      this.dropped++;
      return;
    }
    const locals = (res as ServerResponse & { locals?: ObservedLocals }).locals;
    const key = req.headers['idempotency-key'];
    this.queue.push({
      appId: caller.appId,
      environment: caller.environment,
      at: this.clock.now(),
      method: req.method ?? '',
      path: (req.originalUrl ?? req.url ?? '').slice(0, PATH_MAX),
      status: res.statusCode,
      code: locals?.problemCode ?? null,
      pointers: (locals?.problemPointers ?? []).slice(0, 100).map((p) => p.slice(0, 200)),
      durationMs: Math.round(durationMs),
      requestId: req.id ?? '',
      clientAddress: req.ip ?? '',
      idempotencyKeyPrefix: typeof key === 'string' ? key.slice(0, 8) : null,
    });
    if (this.queue.length >= BATCH) this.flushSoon(0);
    else if (!this.timer) this.flushSoon(FLUSH_DELAY_MS);
  };

  /** Calls dropped because the queue was full, since this instance started (the metric reads it). */
  droppedCalls(): number {
    return this.dropped;
  }

  private flushSoon(delayMs: number): void {
    if (this.running) return; // the running flush takes what is queued
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.flush().finally(() => {
        this.running = null;
        if (this.queue.length > 0) this.flushSoon(this.queue.length >= BATCH ? 0 : FLUSH_DELAY_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.transactions.run((m) => this.repo.recordCalls(m, batch));
      } catch (err) {
        this.logger.warn({ err, calls: batch.length }, 'request log entries not recorded');
      }
    }
  }

  /** Writes what is queued (tests and shutdown wait for it). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.running) {
        await this.running;
        continue;
      }
      if (this.queue.length === 0) return;
      // what waits for its timer (or came after the last flush) is written now
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.running = this.flush().finally(() => (this.running = null));
    }
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.purgeTimer = this.scheduler.every(REQUEST_LOG_PURGE_INTERVAL_MS, () => {
      if (this.purging) return;
      this.purging = this.purge()
        .catch((err) => {
          this.logger.warn({ err }, 'request log purge failed');
          return 0;
        })
        .finally(() => (this.purging = null));
    });
  }

  /** Deletes the entries older than REQUEST_LOG_RETENTION_DAYS, paced (pacedBatches); returns how many went. */
  async purge(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.requestLogRetentionDays * DAY_MS);
    return pacedBatches(PURGE_BATCH, (size) => this.transactions.run((m) => this.repo.purgeRequestLog(m, before, size)), () => this.stopping);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.purgeTimer?.cancel();
    this.purgeTimer = null;
    await this.settled();
    await this.purging;
  }
}

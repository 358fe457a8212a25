import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { pacedBatches } from '../../../shared/database/paced-batches';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type PeriodicJob, Scheduler } from '../../../shared/domain/scheduler';
import type { ObservedLocals } from '../../../shared/http/observed-locals';
import { DeveloperRepository } from '../domain/developer.repository';
import { loggedPath } from '../domain/logged-path';
import { LoggedCallPages } from './logged-call-pages';

/** At most this many calls wait for their insert; beyond it new ones are dropped and counted (never a request delayed). */
export const REQUEST_LOG_QUEUE_LIMIT = 10_000;
/** How long a call may wait to be batched with the next ones. */
const FLUSH_DELAY_MS = 200;
/** How often an instance purges entries past REQUEST_LOG_RETENTION_DAYS, and the entries per purge statement. */
export const REQUEST_LOG_PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1000;
const DAY_MS = 86_400_000;
const PATH_MAX = 2000;
const POINTERS_MAX = 100;
const POINTER_MAX = 200;

type CompletedRequest = IncomingMessage & { caller?: { appId: string; environment: string }; id?: string; originalUrl?: string; ip?: string };

/**
 * The developer console's request log (CONTRACT §15): every partner call of a known app, recorded OFF the
 * request's path. The partner listener's completion hook calls `record` once the response has finished;
 * it only queues the call's strings and numbers by column (LoggedCallPages, bounded: when full, the call is dropped and
 * counted, `partner_request_log_dropped_total`). A background flush inserts the queue a page (≤ 500 calls) per
 * statement, at most 200 ms after a call was queued, at once when a page is full.
 * A call without a known token has no caller (the partner guard sets it) and is not logged: a 401 for a
 * token that names no app reaches no developer. REQUEST_LOG_RETENTION_DAYS=0 turns the log off.
 * Entries older than the retention are purged in paced batches by every instance.
 */
@Injectable()
export class RequestLogRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('request-log');
  private readonly queue = new LoggedCallPages(REQUEST_LOG_QUEUE_LIMIT);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private dropped = 0;
  private purgeJob: PeriodicJob | null = null;
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
    const locals = (res as ServerResponse & { locals?: ObservedLocals }).locals;
    const key = req.headers['idempotency-key'];
    const pointers = locals?.problemPointers;
    const queued = this.queue.add({
      appId: caller.appId,
      environment: caller.environment,
      atMs: this.clock.now().getTime(),
      method: req.method ?? '',
      // CONTRACT §20: a secret-looking query value is never stored
      path: loggedPath(req.originalUrl ?? req.url ?? '').slice(0, PATH_MAX),
      status: res.statusCode,
      code: locals?.problemCode ?? null,
      pointers: pointers && pointers.length > 0 ? pointers.slice(0, POINTERS_MAX).map((p) => p.slice(0, POINTER_MAX)) : null,
      durationMs: Math.round(durationMs),
      requestId: req.id ?? '',
      clientAddress: req.ip ?? '',
      keyPrefix: typeof key === 'string' ? key.slice(0, 8) : null,
    });
    if (!queued) {
      this.dropped++;
      return;
    }
    if (this.queue.pageFull) this.flushSoon(0);
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
        if (this.queue.length > 0) this.flushSoon(this.queue.pageFull ? 0 : FLUSH_DELAY_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    for (let batch = this.queue.take(); batch; batch = this.queue.take()) {
      const calls = batch;
      try {
        await this.transactions.run((m) => this.repo.recordCalls(m, calls));
      } catch (err) {
        this.logger.warn({ err, calls: calls.appId.length }, 'request log entries not recorded');
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
    this.purgeJob = this.scheduler.periodically(
      REQUEST_LOG_PURGE_INTERVAL_MS,
      (stopping) => this.purge(stopping),
      (err) => this.logger.warn({ err }, 'request log purge failed'),
    );
  }

  /** Deletes the entries older than REQUEST_LOG_RETENTION_DAYS, paced (pacedBatches), until `stopping()`; returns how many went. */
  async purge(stopping: () => boolean = () => false): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.requestLogRetentionDays * DAY_MS);
    return pacedBatches(PURGE_BATCH, (size) => this.transactions.run((m) => this.repo.purgeRequestLog(m, before, size)), stopping);
  }

  async onApplicationShutdown(): Promise<void> {
    const purge = this.purgeJob?.stop();
    this.purgeJob = null;
    await this.settled();
    await purge;
  }
}

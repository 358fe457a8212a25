import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { IdempotencyService } from './idempotency.service';

const PURGE_INTERVAL = 'idempotency-purge';

/**
 * Purges expired idempotency records periodically (CONTRACT §6). Runs on the partner listener of every
 * instance; the purge deletes with SKIP LOCKED in batches, so instances running it together are safe.
 * The interval depends on the retention (configuration), so it is registered with @nestjs/schedule's
 * registry at bootstrap rather than by a decorator; the schedule module clears it at shutdown. A paced
 * purge of a backlog can outlast the interval: a tick while one runs starts none, and a stop ends the
 * running one after its current batch (as WebhookRetention does).
 */
@Injectable()
export class IdempotencyPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPurgeScheduler.name);
  private running: Promise<unknown> | null = null;
  private stopping = false;

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly scheduler: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(15 * 60_000, Math.max(60_000, (this.config.idempotencyRetentionHours * 3_600_000) / 4));
    const timer = setInterval(() => this.purgeOnce(), every);
    // a pending purge never keeps the process alive
    timer.unref();
    this.scheduler.addInterval(PURGE_INTERVAL, timer);
  }

  /** One tick: a purge, unless one is still running or the instance is stopping. */
  purgeOnce(): void {
    if (this.running || this.stopping) return;
    this.running = this.idempotency
      .purgeExpired(() => this.stopping)
      .catch((err) => this.logger.warn({ err }, 'idempotency purge failed'))
      .finally(() => (this.running = null));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running;
  }
}

import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { IdempotencyService } from './idempotency.service';

const PURGE_INTERVAL = 'idempotency-purge';

/**
 * Purges expired idempotency records periodically (CONTRACT §6). Runs on the partner listener of every
 * instance; the purge deletes with SKIP LOCKED in batches, so instances running it together are safe.
 * The interval depends on the retention (configuration), so it is registered with @nestjs/schedule's
 * registry at bootstrap rather than by a decorator; the schedule module clears it at shutdown.
 */
@Injectable()
export class IdempotencyPurgeScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(IdempotencyPurgeScheduler.name);

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly scheduler: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(15 * 60_000, Math.max(60_000, (this.config.idempotencyRetentionHours * 3_600_000) / 4));
    const timer = setInterval(() => {
      this.idempotency.purgeExpired().catch((err) => this.logger.warn({ err }, 'idempotency purge failed'));
    }, every);
    // a pending purge never keeps the process alive
    timer.unref();
    this.scheduler.addInterval(PURGE_INTERVAL, timer);
  }
}

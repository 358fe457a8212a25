import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { type PeriodicJob, Scheduler } from '../../../shared/domain/scheduler';
import { IdempotencyService } from './idempotency.service';

/**
 * Purges expired idempotency records periodically (CONTRACT §6). Runs on the partner listener of every
 * instance; the purge deletes with SKIP LOCKED in batches, so instances running it together are safe.
 * The interval depends on the retention (configuration): a quarter of it, between one and 15 minutes.
 * A paced purge of a backlog can outlast the interval, and a stop ends the running one after its
 * current batch (Scheduler.periodically).
 */
@Injectable()
export class IdempotencyPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPurgeScheduler.name);
  private job: PeriodicJob | null = null;

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(15 * 60_000, Math.max(60_000, (this.config.idempotencyRetentionHours * 3_600_000) / 4));
    this.job = this.scheduler.periodically(
      every,
      (stopping) => this.idempotency.purgeExpired(stopping),
      (err) => this.logger.warn({ err }, 'idempotency purge failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    this.job = null;
  }
}

import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { pacedBatches } from '../../../shared/database/paced-batches';
import { Clock } from '../../../shared/domain/clock';
import { type PeriodicJob, Scheduler } from '../../../shared/domain/scheduler';
import { WebhookRepository } from '../domain/webhook.repository';

/** How often an instance purges (each purge runs batches until nothing old is left). */
export const RETENTION_INTERVAL_MS = 60_000;
/** Events per purge statement: small, so each statement's locks on old rows are held for milliseconds. */
export const RETENTION_BATCH = 200;
const DAY_MS = 86_400_000;

/**
 * CONTRACT §9, lifecycle: events, deliveries and attempts are kept WEBHOOK_RETENTION_DAYS after their
 * event was created and nothing of it is pending, then purged in small batches (one statement each,
 * SKIP LOCKED, only rows no write touches: see PURGE_SQL), on the partner listener of every instance.
 * Receipts are not the webhooks module's and stay. "Now" is the Clock's.
 */
@Injectable()
export class WebhookRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookRetention.name);
  private job: PeriodicJob | null = null;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.periodically(
      RETENTION_INTERVAL_MS,
      (stopping) => this.purge(RETENTION_BATCH, stopping),
      (err) => this.logger.warn({ err }, 'webhook retention purge failed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    // the purge ends after its current batch: a long backlog must not hold the stop past its grace
    await this.job?.stop();
    this.job = null;
  }

  /** Purges everything past retention, batch by batch (paced: pacedBatches), until `stopping()`; returns how many events went. */
  async purge(batch = RETENTION_BATCH, stopping: () => boolean = () => false): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.webhookRetentionDays * DAY_MS);
    return pacedBatches(batch, (size) => this.webhooks.purgeBefore(before, size), stopping);
  }
}

import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { IdempotencyService } from './idempotency.service';

/**
 * Purges expired idempotency records periodically (CONTRACT §6). Runs on the partner listener of every
 * instance; the purge deletes with SKIP LOCKED in batches, so instances running it together are safe.
 */
@Injectable()
export class IdempotencyPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPurgeScheduler.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly idempotency: IdempotencyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(15 * 60_000, Math.max(60_000, (this.config.idempotencyRetentionHours * 3_600_000) / 4));
    this.timer = setInterval(() => {
      this.idempotency.purgeExpired().catch((err) => this.logger.warn({ err }, 'idempotency purge failed'));
    }, every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

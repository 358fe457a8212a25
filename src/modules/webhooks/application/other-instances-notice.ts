import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { WebhookRepository } from '../domain/webhook.repository';
import { OutboxSignal } from '../sql';
import { POLL_INTERVAL_MS, WEBHOOK_DISPATCH_OPTIONS, type WebhookDispatchOptions } from './webhook-dispatcher';

/**
 * Tells the other instances' dispatchers of the partner writes' outbox rows committed in this process
 * (OutboxSignal), whose transactions send no NOTIFY (migration 1766680000000): one NOTIFY of its own, outside
 * any write, at most one per poll interval — the first at once, those that come within the interval after
 * it together at its end. It runs whether or not this instance's dispatcher does (an instance that only
 * writes still wakes the others). Should this process die in between, the others' safety poll finds the work.
 * On the embedded store there is no other instance (one process holds DATA_DIR), so it tells nobody.
 */
@Injectable()
export class OtherInstancesNotice implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly intervalMs: number;
  private unwatch: (() => void) | null = null;
  /** When (Date.now()) the last NOTIFY was sent. */
  private toldAt = 0;
  private waiting: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: WebhookRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'database'>,
    @Optional() @Inject(WEBHOOK_DISPATCH_OPTIONS) options: WebhookDispatchOptions | null = null,
  ) {
    this.intervalMs = options?.pollIntervalMs ?? POLL_INTERVAL_MS;
  }

  onApplicationBootstrap(): void {
    if (this.config.database.kind !== 'postgres') return;
    this.unwatch ??= OutboxSignal.watch(() => this.committed());
  }

  onApplicationShutdown(): void {
    this.unwatch?.();
    this.unwatch = null;
    if (this.waiting) clearTimeout(this.waiting);
    this.waiting = null;
  }

  private committed(): void {
    if (this.waiting) return;
    this.waiting = setTimeout(
      () => {
        this.waiting = null;
        this.toldAt = Date.now();
        this.repository.notifyWork().catch((err: unknown) => this.logger.warn({ err }, 'telling the other instances of new webhook work failed'));
      },
      Math.max(0, this.toldAt + this.intervalMs - Date.now()),
    );
    this.waiting.unref();
  }
}

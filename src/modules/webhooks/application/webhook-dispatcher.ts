import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { Clock } from '../../../shared/domain/clock';
import { nextAttemptDelayMs } from '../domain/retry-schedule';
import { type ClaimedDelivery, WebhookRepository } from '../domain/webhook.repository';
import { WebhookSender } from '../infrastructure/webhook-sender';

/** How often an idle dispatcher looks for work: well inside the 5 s promise of CONTRACT §9. */
export const POLL_INTERVAL_MS = 500;
/** A claimed delivery is leased this long; a dispatcher that died mid-send leaves it to be retried. */
const LEASE_MS = 60_000;
const BATCH = 20;

/**
 * Delivers `operation.completed` at least once, from any number of instances: outbox rows and due
 * deliveries are claimed with FOR UPDATE SKIP LOCKED in short transactions, and each send happens
 * outside any transaction (an HTTP call never holds a database lock — on PGlite it would hold the
 * whole store). Every attempt is recorded; failures are retried on the Standard Webhooks schedule with
 * the same webhook-id (the event id) and the identical body.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly sender: WebhookSender;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sender = new WebhookSender({ allowPrivateNetworks: config.webhookAllowPrivateNetworks });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops claiming; in-flight sends finish and are recorded (a claimed row is never lost: its lease expires). */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.runOnce()
      .then(() => undefined)
      .catch((err) => this.logger.warn({ err }, 'webhook dispatch round failed'))
      .finally(() => (this.running = null));
  }

  /** One round: fan out new events, then send every due delivery once. Returns how many were sent. */
  async runOnce(): Promise<number> {
    await this.webhooks.fanOut(100);
    let sent = 0;
    while (!this.stopped) {
      const batch = await this.webhooks.claimDue(BATCH, LEASE_MS);
      if (batch.length === 0) break;
      await Promise.all(batch.map((d) => this.deliver(d)));
      sent += batch.length;
      if (batch.length < BATCH) break;
    }
    return sent;
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    const result = await this.sender.send({ url: d.url, secret: d.secret, msgId: d.eventId, timestamp: attemptedAt, body: d.body });
    const retryInMs = result.ok ? null : nextAttemptDelayMs(d.attempt);
    if (!result.ok) {
      this.logger.warn({ deliveryId: d.id, attempt: d.attempt, status: result.status, error: result.error }, 'webhook attempt failed');
    }
    await this.webhooks.recordAttempt(d, { ...result, attemptedAt, retryInMs });
  }
}

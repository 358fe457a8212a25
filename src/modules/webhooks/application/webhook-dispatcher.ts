import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
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

/** Timing knobs; production uses the defaults, tests shorten them instead of sleeping. */
export interface WebhookDispatchOptions {
  /** Default POLL_INTERVAL_MS. */
  pollIntervalMs?: number;
  /** Default 60 s: longer than a send can take (10 s), so a live dispatcher never loses its lease. */
  leaseMs?: number;
  /** The delay before the next attempt after `failedAttempts` failures, or null to give up. Default: the CONTRACT §9 schedule. */
  retryDelayMs?: (failedAttempts: number) => number | null;
}

/** Optional provider of WebhookDispatchOptions (a test module may bind it). */
export const WEBHOOK_DISPATCH_OPTIONS = Symbol('WEBHOOK_DISPATCH_OPTIONS');

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
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly retryDelayMs: (failedAttempts: number) => number | null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  /** Every round in flight, the timer's and direct runOnce() calls alike: shutdown waits for them all. */
  private readonly rounds = new Set<Promise<number>>();
  private stopped = false;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(WEBHOOK_DISPATCH_OPTIONS) options: WebhookDispatchOptions | null = null,
  ) {
    this.sender = new WebhookSender({ allowPrivateNetworks: config.webhookAllowPrivateNetworks });
    this.pollIntervalMs = options?.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.leaseMs = options?.leaseMs ?? LEASE_MS;
    this.retryDelayMs = options?.retryDelayMs ?? ((n) => nextAttemptDelayMs(n));
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  /** Starts polling (the partner listener does this at bootstrap). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.tick(), this.pollIntervalMs);
    this.timer.unref();
  }

  /**
   * Stops claiming; sends in flight finish and are recorded. A claimed row is never lost: should the
   * process die before recording, its lease expires and another round (of any instance) sends it again.
   */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.rounds]);
  }

  private tick(): void {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    this.runOnce()
      .catch((err) => this.logger.warn({ err }, 'webhook dispatch round failed'))
      .finally(() => (this.ticking = false));
  }

  /** One round: fan out new events, then send every due delivery once. Returns how many were sent. */
  runOnce(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    const round = this.round();
    this.rounds.add(round);
    const forget = () => this.rounds.delete(round);
    round.then(forget, forget);
    return round;
  }

  private async round(): Promise<number> {
    await this.webhooks.fanOut(100);
    let sent = 0;
    while (!this.stopped) {
      const batch = await this.webhooks.claimDue(BATCH, this.leaseMs);
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
    const retryInMs = result.ok ? null : this.retryDelayMs(d.attempt);
    if (!result.ok) {
      this.logger.warn({ deliveryId: d.id, attempt: d.attempt, status: result.status, error: result.error }, 'webhook attempt failed');
    }
    await this.webhooks.recordAttempt(d, { ...result, attemptedAt, retryInMs });
  }
}

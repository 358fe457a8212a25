import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { LiveSet } from '../../../shared/performance/live-set';
import { Clock } from '../../../shared/domain/clock';
import { DatabaseNotifications, type Listening } from '../../../shared/domain/database-notifications';
import { WEBHOOK_WORK_CHANNEL } from '../../../shared/database/migrations/1766650000000-webhook-work-notify';
import { type Repetition, Scheduler, TimerScheduler } from '../../../shared/domain/scheduler';
import { OutboxSignal } from '../sql';
import { nextAttemptDelayMs } from '../domain/retry-schedule';
import { type AttemptOutcome, type ClaimedDelivery, type FinishedDeliveries, WebhookRepository } from '../domain/webhook.repository';
import { WebhookSender } from '../domain/webhook-sender';

/**
 * How often a dispatcher without the database's notifications looks for work (its listener lost, or none:
 * a dispatcher made outside Nest): the most a new event waits before it is fanned out (CONTRACT §9: 5 s,
 * goal 2 s at p99). Also how soon work that is due but held back (endpoint or app at its concurrency) is
 * looked at again. A busy dispatcher does not wait for it (a recorded batch starts the next round at once).
 */
export const POLL_INTERVAL_MS = 100;
/**
 * Issue 47, an idle instance costs nothing: while the dispatcher LISTENs on WEBHOOK_WORK_CHANNEL, a round
 * starts when a committed transaction (of any instance) notifies new or due work, when the earliest pending
 * delivery becomes due (a retry's backoff, a lease that ends: a timer to it), and at the latest after this
 * safety poll — for what no notification told (a listener that died without noticing it yet). An idle round
 * is three statements (fan-out, claim, next due).
 */
export const SAFETY_POLL_MS = 30_000;
/** Outbox events fanned out per statement. */
export const FAN_OUT_BATCH = 500;
/**
 * A claimed delivery is leased this long and the lease is renewed every third of it while the send
 * runs: a dispatcher that dies leaves its claims to others within LEASE_MS (CONTRACT §9: delivered
 * within 30 s of the commit), a live one never loses a claim to a slow send.
 */
export const LEASE_MS = 10_000;
/** Sends in flight to one endpoint at a time (across dispatchers, by their leases): WEBHOOK_ENDPOINT_CONCURRENCY's default. */
export const PER_ENDPOINT_CONCURRENCY = 16;
/** Sends in flight from one dispatcher. */
export const MAX_IN_FLIGHT = 256;
/**
 * Sends in flight for one app across all dispatchers, as a share of one dispatcher's slots (issue 35):
 * half, so that however many events one app has waiting, another app's delivery always finds a free slot
 * on every instance (and the claim serves the least busy apps first).
 */
export const APP_SHARE_OF_IN_FLIGHT = 0.5;

/** Timing knobs; production uses the defaults, tests shorten them instead of sleeping. */
export interface WebhookDispatchOptions {
  /** Default POLL_INTERVAL_MS. */
  pollIntervalMs?: number;
  /** Default LEASE_MS; renewed every third of it while a send runs. */
  leaseMs?: number;
  /** Default PER_ENDPOINT_CONCURRENCY. */
  perEndpointConcurrency?: number;
  /** Default MAX_IN_FLIGHT. */
  maxInFlight?: number;
  /** Sends in flight for one app across all dispatchers; default APP_SHARE_OF_IN_FLIGHT of maxInFlight. */
  perAppConcurrency?: number;
  /** The delay before the next attempt after `failedAttempts` failures, or null to give up. Default: the CONTRACT §9 schedule. */
  retryDelayMs?: (failedAttempts: number) => number | null;
}

/** The provider of WebhookDispatchOptions: WebhookDispatchModule binds the defaults; a test module may override it. */
export const WEBHOOK_DISPATCH_OPTIONS = Symbol('WEBHOOK_DISPATCH_OPTIONS');

/**
 * Delivers `operation.completed` at least once, from any number of instances: outbox rows and due
 * deliveries are claimed with FOR UPDATE SKIP LOCKED in short transactions, and each send happens
 * outside any transaction (an HTTP call never holds a database lock — on PGlite it would hold the
 * whole store). Every attempt is recorded; failures are retried on the Standard Webhooks schedule with
 * the same webhook-id (the event id) and the identical body.
 *
 * CONTRACT §9, fairness: sends run independently of each other (a poll never waits for a send), each
 * endpoint has at most `perEndpointConcurrency` sends in flight, and claims are taken per endpoint, so
 * an endpoint that never answers ties up only its own slots while every other endpoint's first attempt
 * is claimed on the next poll. Across apps (issue 35, docs/adr/0010-self-service-webhooks-bounded.md):
 * each claim serves the apps with the fewest sends in flight first, and one app holds at most
 * `perAppConcurrency` sends across all instances, so one app's burst never holds back another app's
 * first attempt.
 *
 * CONTRACT §9, keeping pace (docs/adr/0009-webhook-dispatch-keeps-pace.md): one round fans out and claims
 * hundreds of deliveries in a few statements; finished sends are recorded together (every outcome that
 * arrived while the previous batch was being written goes into the next one statement), and each
 * recorded batch frees its endpoints' slots and starts the next round at once.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly perApp: number;
  private readonly retryDelayMs: (failedAttempts: number) => number | null;
  private timer: Repetition | null = null;
  /** The LISTEN on WEBHOOK_WORK_CHANNEL, while started with notifications. */
  private listener: Listening | null = null;
  /** Ends the watch on this process's committed outbox rows (OutboxSignal). */
  private unwatch: (() => void) | null = null;
  /** The listener is up: rounds start on notifications and at wakeAt, not on every poll. */
  private listening = false;
  /** While listening: when (Date.now()) the next round starts without a notification. */
  private wakeAt = 0;
  private ticking = false;
  /** A send finished during a claim: claim again right after it. */
  private again = false;
  /**
   * A notification came while a round ran or less than pollIntervalMs after the last one started: the
   * next poll starts the round (at most pollIntervalMs later, as polling did). Under a stream of writes each
   * commit notifies; rounds back to back for each of them cost every write a fan-out, a claim and a look-up
   * of its own (the yardstick's create fell from 0.56x to 0.47x of the baseline), one round per poll fans out
   * what the interval gathered.
   */
  private notifiedSince = false;
  /** When (Date.now()) the last round started. */
  private roundStartedAt = 0;
  /** Claim phases in flight (the timer's and runOnce()'s): shutdown waits for them. A LiveSet, not a `Set`: see there, why. */
  private readonly claiming = new LiveSet<Promise<unknown>>();
  /** Sends in flight, each until its attempt is recorded: shutdown waits for them. */
  private readonly sends = new LiveSet<Promise<void>>();
  /** Finished sends waiting for the next batch to record them. */
  private unrecorded: Array<{ delivery: ClaimedDelivery; outcome: AttemptOutcome; done: (err?: unknown) => void }> = [];
  private recording = false;
  private stopped = false;
  /** Deliveries this dispatcher finished since it was made (metrics: partner_webhook_deliveries_finished_total). */
  private readonly finished: FinishedDeliveries = { delivered: 0, failed: 0 };

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_DISPATCH_OPTIONS) options: WebhookDispatchOptions = {},
    private readonly scheduler: Scheduler = new TimerScheduler(),
    @Optional() @Inject(DatabaseNotifications) private readonly notifications: DatabaseNotifications | null = null,
  ) {
    this.pollIntervalMs = options?.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.leaseMs = options?.leaseMs ?? LEASE_MS;
    this.perEndpoint = options?.perEndpointConcurrency ?? PER_ENDPOINT_CONCURRENCY;
    this.maxInFlight = options?.maxInFlight ?? MAX_IN_FLIGHT;
    this.perApp = options?.perAppConcurrency ?? Math.max(1, Math.floor(this.maxInFlight * APP_SHARE_OF_IN_FLIGHT));
    this.retryDelayMs = options?.retryDelayMs ?? ((n) => nextAttemptDelayMs(n));
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  /**
   * Starts polling (the partner listener does this at bootstrap). A plain repetition (Scheduler.every),
   * not Scheduler.periodically: the graceful stop halts claiming at once when the stop begins (before Nest's shutdown hooks, see
   * bootstrap.ts), a finished send re-polls immediately, each send renews its lease on its own timer,
   * and tests run extra dispatchers outside any Nest container — none of which a periodic job stopped
   * at application shutdown expresses.
   */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = this.scheduler.every(this.pollIntervalMs, () => {
      // listening: the clock only starts the round that is due (a retry, a lease, the safety poll, a notification held back)
      if (!this.listening || this.notifiedSince || Date.now() >= this.wakeAt) this.tick();
    });
    this.listener =
      this.notifications?.listen(WEBHOOK_WORK_CHANNEL, {
        notified: () => this.notified(),
        listening: (up) => {
          this.listening = up;
          // (re)connected: what was written while nobody listened is looked at now
          if (up) this.tick();
        },
      }) ?? null;
    this.unwatch = OutboxSignal.watch(() => this.outboxCommitted());
  }

  /**
   * An outbox row of a partner write committed in this process (OutboxSignal; its transaction sent no NOTIFY):
   * a round here as for a notification. The other instances are told by OtherInstancesNotice, which runs
   * whether or not this dispatcher does.
   */
  private outboxCommitted(): void {
    if (!this.stopped) this.notified();
  }

  /**
   * Stops claiming; sends in flight finish and are recorded. A claimed row is never lost: should the
   * process die before recording, its lease expires and another round (of any instance) sends it again.
   */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    this.unwatch?.();
    this.unwatch = null;
    const listener = this.listener;
    this.listener = null;
    this.listening = false;
    await listener?.close();
    await Promise.allSettled([...this.claiming]);
    await Promise.allSettled([...this.sends]);
  }

  /**
   * A poll: claims what is due and starts the sends, without waiting for them. Also run as soon as a
   * send of the polling dispatcher finishes, so that an endpoint's next delivery does not wait for the
   * next poll (its concurrency is bounded, its throughput should not be).
   */
  private tick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    this.again = false;
    this.notifiedSince = false;
    this.roundStartedAt = Date.now();
    this.track(this.claimAndStart())
      .catch((err) => this.logger.warn({ err }, 'webhook dispatch round failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again && this.timer) setImmediate(() => this.tick());
      });
  }

  /** New or due work was committed: a round now when none ran within pollIntervalMs, else at the next poll. */
  private notified(): void {
    if (!this.ticking && Date.now() - this.roundStartedAt >= this.pollIntervalMs) this.tick();
    else this.notifiedSince = true;
  }

  /**
   * One round (tests, tools): fans out new events, then sends every due delivery and waits for the
   * sends it started. Returns how many were sent.
   */
  async runOnce(): Promise<number> {
    let sent = 0;
    while (!this.stopped) {
      const started = await this.track(this.claimAndStart());
      if (started.length === 0) break;
      await Promise.all(started);
      sent += started.length;
    }
    return sent;
  }

  /**
   * How many deliveries this dispatcher has finished since it was made — delivered (2xx) and failed (given
   * up after the retry schedule) — as its recorded statements reported them: a counter per instance
   * (Prometheus sums them across instances), so that a scrape never counts the history in the database.
   */
  finishedDeliveries(): FinishedDeliveries {
    return { ...this.finished };
  }

  private track<T>(claim: Promise<T>): Promise<T> {
    const forget = this.claiming.add(claim);
    claim.then(forget, forget);
    return claim;
  }

  private async claimAndStart(): Promise<Array<Promise<void>>> {
    if (this.stopped) return [];
    // a notification during this round sets `notifiedSince`: the next poll looks again, whatever wakeAt says
    if (this.listening) this.wakeAt = Date.now() + SAFETY_POLL_MS;
    while (!this.stopped && (await this.webhooks.fanOut(FAN_OUT_BATCH)) === FAN_OUT_BATCH);
    const started: Array<Promise<void>> = [];
    while (!this.stopped) {
      const room = this.maxInFlight - this.sends.size;
      if (room <= 0) break;
      const batch = await this.webhooks.claimDue(room, this.leaseMs, this.perEndpoint, this.perApp);
      // claimed rows are always sent, also when a stop began during the claim: their attempt is counted
      for (const d of batch) started.push(this.startSend(d));
      if (batch.length < room) {
        if (this.listening) await this.sleepUntilDue();
        break;
      }
    }
    return started;
  }

  /** Everything due was claimed: the next round starts when the earliest pending delivery can be claimed. */
  private async sleepUntilDue(): Promise<void> {
    const dueInMs = await this.webhooks.nextDueInMs();
    if (dueInMs !== null) this.wakeAt = Math.min(this.wakeAt, Date.now() + Math.max(0, dueInMs));
  }

  private startSend(d: ClaimedDelivery): Promise<void> {
    const send = this.deliver(d).catch((err) =>
      // the attempt could not be recorded (database lost): the lease runs out and the delivery is sent again
      this.logger.warn({ err, deliveryId: d.id, attempt: d.attempt }, 'webhook attempt not recorded'),
    );
    const forget = this.sends.add(send);
    send.then(forget, forget);
    return send;
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    // the lease must outlive the send and the wait for its batch to be recorded
    const renew = this.scheduler.every(Math.max(Math.floor(this.leaseMs / 3), 50), () => {
      this.webhooks.renewLease(d, this.leaseMs).then(
        (held) => held || this.logger.warn({ deliveryId: d.id, attempt: d.attempt }, 'webhook lease lost during the send'),
        (err) => this.logger.warn({ err, deliveryId: d.id }, 'webhook lease renewal failed'),
      );
    });
    try {
      const attemptedAt = this.clock.now();
      const result = await this.sender.send({
        url: d.url,
        secret: d.secret,
        previousSecrets: d.previousSecrets,
        msgId: d.eventId,
        timestamp: attemptedAt,
        body: d.body,
      });
      const retryInMs = result.ok ? null : this.retryDelayMs(d.attempt);
      if (!result.ok) {
        this.logger.warn({ deliveryId: d.id, attempt: d.attempt, status: result.status, error: result.error }, 'webhook attempt failed');
      }
      await this.record(d, { ...result, attemptedAt, retryInMs });
    } finally {
      renew.cancel();
    }
  }

  /** Queues an outcome for the next batch; resolves when its batch is recorded. */
  private record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.unrecorded.push({ delivery, outcome, done: (err) => (err === undefined ? resolve() : reject(err)) });
      // the outcomes of every send that finishes in this turn of the event loop go into one statement
      if (!this.recording) {
        this.recording = true;
        setImmediate(() => {
          this.recordBatches().catch((err) => this.logger.error({ err }, 'webhook outcome recording stopped'));
        });
      }
    });
  }

  /** Writes the queued outcomes, one statement per batch, until none is left; each batch frees slots: next round. */
  private async recordBatches(): Promise<void> {
    while (this.unrecorded.length > 0) {
      const batch = this.unrecorded;
      this.unrecorded = [];
      let failure: unknown;
      try {
        const done = await this.webhooks.recordAttempts(batch.map(({ delivery, outcome }) => ({ delivery, outcome })));
        this.finished.delivered += done.delivered;
        this.finished.failed += done.failed;
      } catch (err) {
        failure = err ?? new Error('recording failed');
      }
      for (const b of batch) b.done(failure);
      if (this.timer) this.tick(); // polling: the endpoints' slots are free again
    }
    this.recording = false;
  }
}

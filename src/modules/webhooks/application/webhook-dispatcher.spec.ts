import { NO_NETWORKS } from '../../../shared/domain/allowed-networks';
import { Clock } from '../../../shared/domain/clock';
import { DatabaseNotifications, type NotificationListener } from '../../../shared/domain/database-notifications';
import { type Repetition, Scheduler } from '../../../shared/domain/scheduler';
import { type ClaimedDelivery, WebhookRepository } from '../domain/webhook.repository';
import { HttpWebhookSender } from '../infrastructure/http-webhook-sender';
import { OutboxSignal } from '../sql';
import { OtherInstancesNotice } from './other-instances-notice';
import { WebhookDispatcher } from './webhook-dispatcher';

const POSTGRES = { database: { kind: 'postgres' as const, url: 'postgres://127.0.0.1/unused' } };

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-20T10:00:00.000Z');
  }
}

type Outcome = Parameters<WebhookRepository['recordAttempt']>[1];

/** Hands out the queued deliveries once; `claimGate` can hold a claim open to simulate a round in flight. */
class FakeRepository extends WebhookRepository {
  queue: ClaimedDelivery[] = [];
  recorded: Array<{ delivery: ClaimedDelivery; outcome: Outcome }> = [];
  fanOuts = 0;
  notifies = 0;
  notifyWork = async () => void this.notifies++;
  dueInMs: number | null = null;
  nextDueInMs = async () => this.dueInMs;
  claimGate: Promise<void> | null = null;
  appExists = async () => true;
  insertEndpoint = async () => 'inserted' as const;
  endpointsOfApps = async () => [];
  removeEndpoint = async () => false;
  endpoint = async () => null;
  rotateSecret = async () => null;
  recover = async () => null;
  sendTest = async () => false;
  async fanOut(): Promise<number> {
    this.fanOuts++;
    return 0;
  }
  async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    if (this.claimGate) await this.claimGate;
    return this.queue.splice(0, limit);
  }
  async renewLease(): Promise<boolean> {
    return true;
  }
  async recordAttempts(attempts: ReadonlyArray<{ delivery: ClaimedDelivery; outcome: Outcome }>): Promise<{ delivered: number; failed: number }> {
    this.recorded.push(...attempts);
    return {
      delivered: attempts.filter((a) => a.outcome.ok).length,
      failed: attempts.filter((a) => !a.outcome.ok && a.outcome.retryInMs === null).length,
    };
  }
  enableEndpoint = async () => true;
  endpointsOf = async () => [];
  purgeBefore = async () => 0;
}

const sender = new HttpWebhookSender({ allowedNetworks: NO_NETWORKS });
// an ftp URL fails in the sender before any network access: a failed attempt, deterministically
const failing = (attempt: number): ClaimedDelivery => ({
  organizationId: 'org',
  id: `d${attempt}`,
  eventId: 'evt',
  attempt,
  body: '{}',
  url: 'ftp://example.com/x',
  secret: `whsec_${Buffer.alloc(24).toString('base64')}`,
});

/** Repetitions run only when the test says so. */
class ManualScheduler extends Scheduler {
  readonly started: Array<{ intervalMs: number; task: () => void; cancelled: boolean }> = [];
  every(intervalMs: number, task: () => void): Repetition {
    const r = { intervalMs, task, cancelled: false };
    this.started.push(r);
    return { cancel: () => void (r.cancelled = true) };
  }
}

/** A LISTEN the test drives: who listens on which channel, and whether it was closed. */
class ManualNotifications extends DatabaseNotifications {
  readonly listeners: Array<{ channel: string; listener: NotificationListener; closed: boolean }> = [];
  listen(channel: string, listener: NotificationListener) {
    const l = { channel, listener, closed: false };
    this.listeners.push(l);
    return { close: async () => void (l.closed = true) };
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('WebhookDispatcher', () => {
  it('while it listens, starts rounds on notifications and at the earliest due time, not on each poll (issue 47); polls again when the listener is lost', async () => {
    const repo = new FakeRepository();
    const scheduler = new ManualScheduler();
    const notifications = new ManualNotifications();
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { pollIntervalMs: 100 }, scheduler, notifications);
    d.start();
    expect(notifications.listeners.map((l) => l.channel)).toEqual(['webhook_work']);
    const poll = () => scheduler.started[0].task();
    // the notifications come a poll interval apart (a closer one waits for the next poll: the test below)
    let now = 1_000_000;
    const clockSpy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { listener } = notifications.listeners[0];
    listener.listening(true); // up: one round for what was written before
    await settle();
    expect(repo.fanOuts).toBe(1);
    for (let i = 0; i < 20; i++) poll();
    await settle();
    expect(repo.fanOuts).toBe(1); // nothing due: the polls start no round
    now += 100;
    listener.notified();
    await settle();
    expect(repo.fanOuts).toBe(2);
    repo.dueInMs = -5; // due now (held back): the next poll looks again
    now += 100;
    listener.notified();
    await settle();
    poll();
    await settle();
    expect(repo.fanOuts).toBe(4);
    repo.dueInMs = 60_000; // later than the safety poll: none before it
    poll();
    await settle();
    for (let i = 0; i < 20; i++) poll();
    await settle();
    expect(repo.fanOuts).toBe(5);
    listener.listening(false); // lost: every poll looks, as without notifications
    poll();
    await settle();
    poll();
    await settle();
    expect(repo.fanOuts).toBe(7);
    await d.onApplicationShutdown();
    expect(notifications.listeners[0].closed).toBe(true);
    clockSpy.mockRestore();
  });

  it('an outbox row committed in this process starts a round here at once; the other instances are told by OtherInstancesNotice, one NOTIFY per poll interval, also while this dispatcher is stopped', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const repo = new FakeRepository();
      const notifications = new ManualNotifications();
      const d = new WebhookDispatcher(repo, new FixedClock(), sender, { pollIntervalMs: 100 }, new ManualScheduler(), notifications);
      const notice = new OtherInstancesNotice(repo, POSTGRES, { pollIntervalMs: 100 });
      d.start();
      notice.onApplicationBootstrap();
      notifications.listeners[0].listener.listening(true);
      await settle();
      expect(repo.fanOuts).toBe(1);
      jest.advanceTimersByTime(100);
      OutboxSignal.tell();
      await settle();
      expect(repo.fanOuts).toBe(2); // at once, as for a notification
      jest.advanceTimersByTime(0);
      expect(repo.notifies).toBe(1); // at once: none was sent within the interval before
      jest.advanceTimersByTime(10);
      await d.onApplicationShutdown(); // an instance that only writes still tells the others
      for (let i = 0; i < 5; i++) OutboxSignal.tell();
      jest.advanceTimersByTime(89);
      expect(repo.notifies).toBe(1); // these wait for the interval's end, and go as one
      jest.advanceTimersByTime(1);
      expect(repo.notifies).toBe(2);
      expect(repo.fanOuts).toBe(2); // the stopped dispatcher started no round
      notice.onApplicationShutdown();
      OutboxSignal.tell();
      jest.advanceTimersByTime(1_000);
      expect(repo.notifies).toBe(2);
      // on the embedded store one process holds DATA_DIR: there is no other instance to tell
      const embedded = new OtherInstancesNotice(repo, { database: { kind: 'pglite', dataDir: null } }, { pollIntervalMs: 100 });
      embedded.onApplicationBootstrap();
      OutboxSignal.tell();
      jest.advanceTimersByTime(1_000);
      expect(repo.notifies).toBe(2);
      embedded.onApplicationShutdown();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a stream of notifications starts at most one round per poll interval, a notification after a quiet interval one at once (the yardstick: a round per committed write cost every write)', async () => {
    const repo = new FakeRepository();
    const scheduler = new ManualScheduler();
    const notifications = new ManualNotifications();
    let now = 5_000_000;
    const clockSpy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const d = new WebhookDispatcher(repo, new FixedClock(), sender, { pollIntervalMs: 100 }, scheduler, notifications);
      d.start();
      const poll = () => scheduler.started[0].task();
      const { listener } = notifications.listeners[0];
      listener.listening(true);
      await settle();
      expect(repo.fanOuts).toBe(1);
      // five commits within 10 ms of that round: held for the next poll, not five rounds
      now += 10;
      for (let i = 0; i < 5; i++) listener.notified();
      await settle();
      expect(repo.fanOuts).toBe(1);
      poll();
      await settle();
      expect(repo.fanOuts).toBe(2);
      poll(); // nothing held back since: no round
      await settle();
      expect(repo.fanOuts).toBe(2);
      // quiet for a poll interval: the next notification starts its round at once
      now += 100;
      listener.notified();
      await settle();
      expect(repo.fanOuts).toBe(3);
      await d.onApplicationShutdown();
    } finally {
      clockSpy.mockRestore();
    }
  });

  it('polls through the Scheduler port at its interval, and the stop cancels the repetition', async () => {
    const repo = new FakeRepository();
    const scheduler = new ManualScheduler();
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { pollIntervalMs: 250 }, scheduler);
    d.start();
    d.start(); // idempotent
    expect(scheduler.started.map((r) => r.intervalMs)).toEqual([250]);
    scheduler.started[0].task();
    await new Promise((r) => setImmediate(r));
    expect(repo.fanOuts).toBe(1);
    await d.onApplicationShutdown();
    expect(scheduler.started[0].cancelled).toBe(true);
  });

  it("renews a send's lease through the Scheduler port and cancels the renewal once the attempt is recorded", async () => {
    const repo = new FakeRepository();
    const scheduler = new ManualScheduler();
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { leaseMs: 3000 }, scheduler);
    repo.queue = [failing(1)];
    expect(await d.runOnce()).toBe(1);
    expect(scheduler.started.map((r) => [r.intervalMs, r.cancelled])).toEqual([[1000, true]]);
  });

  it('schedules a failed attempt by the retry schedule it was given, by the attempt number', async () => {
    const repo = new FakeRepository();
    const seen: number[] = [];
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { retryDelayMs: (n) => (seen.push(n), n < 10 ? n * 100 : null) });
    repo.queue = [failing(1), failing(10)];
    expect(await d.runOnce()).toBe(2);
    expect(seen.sort((a, b) => a - b)).toEqual([1, 10]);
    const byId = Object.fromEntries(repo.recorded.map((r) => [r.delivery.id, r.outcome]));
    expect(byId.d1).toMatchObject({ ok: false, error: 'invalid_url', retryInMs: 100, attemptedAt: new FixedClock().now() });
    expect(byId.d10).toMatchObject({ ok: false, retryInMs: null }); // given up
  });

  it('counts the deliveries its recorded statements finished, across rounds (metrics: partner_webhook_deliveries_finished_total)', async () => {
    const repo = new FakeRepository();
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { retryDelayMs: (n) => (n < 10 ? 100 : null) });
    expect(d.finishedDeliveries()).toEqual({ delivered: 0, failed: 0 });
    repo.queue = [failing(1), failing(10)]; // a retry and a give-up
    await d.runOnce();
    expect(d.finishedDeliveries()).toEqual({ delivered: 0, failed: 1 });
    repo.queue = [failing(10)];
    await d.runOnce();
    expect(d.finishedDeliveries()).toEqual({ delivered: 0, failed: 2 });
  });

  it('uses the CONTRACT §9 schedule by default: 5 s ±10 % after the first failure', async () => {
    const repo = new FakeRepository();
    repo.queue = [failing(1)];
    await new WebhookDispatcher(repo, new FixedClock(), sender).runOnce();
    const delay = repo.recorded[0].outcome.retryInMs!;
    expect(delay).toBeGreaterThanOrEqual(4500);
    expect(delay).toBeLessThanOrEqual(5500);
  });

  it('on shutdown waits for the round in flight, then claims nothing more', async () => {
    const repo = new FakeRepository();
    let open: () => void = () => undefined;
    repo.claimGate = new Promise((r) => (open = r));
    repo.queue = [failing(1)];
    const d = new WebhookDispatcher(repo, new FixedClock(), sender);
    const round = d.runOnce();
    await new Promise((r) => setTimeout(r, 0)); // the round is now inside its claim
    let stopped = false;
    const stopping = d.onApplicationShutdown().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    open();
    await stopping;
    expect(await round).toBe(1); // the claim it had made was sent and recorded, not dropped
    expect(repo.recorded).toHaveLength(1);
    repo.queue = [failing(2)];
    const fanOutsBefore = repo.fanOuts;
    expect(await d.runOnce()).toBe(0);
    expect(repo.fanOuts).toBe(fanOutsBefore);
    expect(repo.queue).toHaveLength(1);
  });

  it('polls on its interval once started, one round at a time', async () => {
    const repo = new FakeRepository();
    const d = new WebhookDispatcher(repo, new FixedClock(), sender, { pollIntervalMs: 10 });
    d.onApplicationBootstrap();
    // two rounds of 10 ms take longer than 80 ms on a loaded machine (CI): wait for them, at most 2 s
    for (const end = Date.now() + 2_000; repo.fanOuts < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    await d.onApplicationShutdown();
    const rounds = repo.fanOuts;
    expect(rounds).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 40));
    expect(repo.fanOuts).toBe(rounds);
  });
});

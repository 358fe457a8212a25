import type { AppConfig } from '../../../shared/config/app-config';
import { Clock } from '../../../shared/domain/clock';
import { type Repetition, Scheduler } from '../../../shared/domain/scheduler';
import { WebhookRepository } from '../domain/webhook.repository';
import { WebhookRetention } from './webhook-retention';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-25T10:00:00.000Z');
  }
}

/** A long backlog: every batch is full (for 5,000 batches, so a test that fails still ends), as on a filled database. */
class EndlessBacklog extends WebhookRepository {
  notifyWork = async () => undefined;
  batches = 0;
  appExists = async () => true;
  insertEndpoint = async () => 'inserted' as const;
  fanOut = async () => 0;
  claimDue = async () => [];
  nextDueInMs = async () => null;
  renewLease = async () => true;
  recordAttempts = async () => ({ delivered: 0, failed: 0 });
  enableEndpoint = async () => true;
  endpointsOf = async () => [];
  endpointsOfApps = async () => [];
  removeEndpoint = async () => false;
  endpoint = async () => null;
  rotateSecret = async () => null;
  recover = async () => null;
  sendTest = async () => false;
  async purgeBefore(_before: Date, limit: number): Promise<number> {
    this.batches++;
    await new Promise((r) => setTimeout(r, 1));
    return this.batches < 5_000 ? limit : 0;
  }
}

class ManualScheduler extends Scheduler {
  task: (() => void) | null = null;
  every(_intervalMs: number, task: () => void): Repetition {
    this.task = task;
    return { cancel: () => void (this.task = null) };
  }
}

describe('WebhookRetention', () => {
  it('stops between batches when the instance stops: a long backlog does not hold the shutdown past its grace', async () => {
    const repo = new EndlessBacklog();
    const scheduler = new ManualScheduler();
    const retention = new WebhookRetention(repo, new FixedClock(), scheduler, { webhookRetentionDays: 30 } as AppConfig);
    retention.onApplicationBootstrap();
    scheduler.task!();
    // a purge under way (paced batches); on a loaded machine 30 ms once saw only the first batch
    for (let waited = 0; repo.batches <= 1 && waited < 2_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(repo.batches).toBeGreaterThan(1);
    const stopped = retention.onApplicationShutdown().then(() => 'stopped');
    const outcome = await Promise.race([stopped, new Promise((r) => setTimeout(() => r('still purging after 1 s'), 1_000))]);
    expect(outcome).toBe('stopped');
    const after = repo.batches;
    await new Promise((r) => setTimeout(r, 30));
    expect(repo.batches).toBe(after);
  });
});

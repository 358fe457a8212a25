import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../../../shared/config/app-config';
import { IdempotencyPurgeScheduler } from './idempotency-purge.scheduler';
import type { IdempotencyService } from './idempotency.service';

/** A purge of a long backlog: it runs until it is told to stop (checked every 5 ms, as between batches). */
class EndlessPurge {
  started = 0;
  purgeExpired(stopping: () => boolean = () => false): Promise<number> {
    this.started++;
    return new Promise((resolve) => {
      const check = setInterval(() => {
        if (!stopping()) return;
        clearInterval(check);
        resolve(0);
      }, 5);
    });
  }
}

describe('IdempotencyPurgeScheduler', () => {
  const scheduler = (purge: EndlessPurge) =>
    new IdempotencyPurgeScheduler(purge as unknown as IdempotencyService, new SchedulerRegistry(), { idempotencyRetentionHours: 24 } as AppConfig);

  it('starts no second purge while one still runs (a paced backlog purge can outlast the interval)', async () => {
    const purge = new EndlessPurge();
    const s = scheduler(purge);
    s.purgeOnce();
    s.purgeOnce();
    expect(purge.started).toBe(1);
    await s.onApplicationShutdown();
  });

  it('ends the running purge when the instance stops, and starts none after', async () => {
    const purge = new EndlessPurge();
    const s = scheduler(purge);
    s.purgeOnce();
    const stopped = s.onApplicationShutdown().then(() => 'stopped');
    const outcome = await Promise.race([stopped, new Promise((r) => setTimeout(() => r('still purging after 1 s'), 1_000))]);
    expect(outcome).toBe('stopped');
    s.purgeOnce();
    expect(purge.started).toBe(1);
  });
});

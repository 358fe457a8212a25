import { type Repetition, Scheduler } from './scheduler';

/** Ticks only when the test says so. */
class ManualScheduler extends Scheduler {
  tasks: Array<() => void> = [];
  cancelled = 0;
  every(_intervalMs: number, task: () => void): Repetition {
    this.tasks.push(task);
    return { cancel: () => this.cancelled++ };
  }
  fire(): void {
    this.tasks.forEach((t) => t());
  }
}

/** A run of a long backlog (3 s): it goes on until it is told to stop (checked every 5 ms, as between batches). */
class EndlessRun {
  started = 0;
  run = (stopping: () => boolean): Promise<void> => {
    this.started++;
    const until = Date.now() + 3_000;
    return new Promise((resolve) => {
      const check = setInterval(() => {
        if (!stopping() && Date.now() < until) return;
        clearInterval(check);
        resolve();
      }, 5);
    });
  };
}

describe('Scheduler.periodically: the shape of every purge, scan and watch', () => {
  it('starts no second run while one still runs (a paced backlog can outlast the interval)', async () => {
    const scheduler = new ManualScheduler();
    const work = new EndlessRun();
    const job = scheduler.periodically(60_000, work.run, () => undefined);
    scheduler.fire();
    scheduler.fire();
    job.tick();
    expect(work.started).toBe(1);
    await job.stop();
  });

  it('a stop tells the running one to end after its batch, waits for it, cancels the repetition and starts none after', async () => {
    const scheduler = new ManualScheduler();
    const work = new EndlessRun();
    const job = scheduler.periodically(60_000, work.run, () => undefined);
    scheduler.fire();
    const stopped = job.stop().then(() => 'stopped');
    const outcome = await Promise.race([stopped, new Promise((r) => setTimeout(() => r('still running after 1 s'), 1_000))]);
    expect(outcome).toBe('stopped');
    expect(scheduler.cancelled).toBe(1);
    scheduler.fire();
    expect(work.started).toBe(1);
  });

  it('a failed run is reported, and the next tick runs again', async () => {
    const scheduler = new ManualScheduler();
    const failures: unknown[] = [];
    let runs = 0;
    const job = scheduler.periodically(
      60_000,
      async () => {
        runs++;
        if (runs === 1) throw new Error('database gone');
      },
      (err) => failures.push(err),
    );
    scheduler.fire();
    await new Promise((r) => setImmediate(r));
    expect(failures).toEqual([new Error('database gone')]);
    scheduler.fire();
    await job.stop();
    expect(runs).toBe(2);
  });
});

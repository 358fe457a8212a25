/** A repetition started by a Scheduler; `cancel()` stops it (idempotent). */
export interface Repetition {
  cancel(): void;
}

/** A periodic job (Scheduler.periodically): `tick()` starts a run now unless one runs; `stop()` ends it. */
export interface PeriodicJob {
  /** Starts a run unless one is running or the job has stopped (what each interval does). */
  tick(): void;
  /** No run starts any more; the running one is told to stop after its current batch, and awaited. */
  stop(): Promise<void>;
}

/**
 * Port: clock-driven repetition ("every n ms"), so that application code schedules through an
 * injectable dependency instead of the runtime's timers — as "now" comes from Clock. Repetitions
 * never keep the process alive: a stopping process ends them by its shutdown, not by waiting.
 */
export abstract class Scheduler {
  abstract every(intervalMs: number, task: () => void): Repetition;

  /**
   * The shape of every background job here (purges, scans, watches): a run every `intervalMs`, one run
   * at a time per instance (a tick while one runs starts none: a paced backlog may outlast the
   * interval), a failed run reported to `onFailure` and tried again at the next tick, and a stop that
   * tells the running one to end after its current batch (`stopping()` turns true) and waits for it,
   * so an instance's shutdown never cuts a batch in half nor waits for a whole backlog.
   */
  periodically(intervalMs: number, run: (stopping: () => boolean) => Promise<unknown>, onFailure: (err: unknown) => void): PeriodicJob {
    let running: Promise<void> | null = null;
    let stopped = false;
    const stopping = () => stopped;
    const tick = () => {
      if (running || stopped) return;
      running = run(stopping)
        .then(() => undefined, onFailure)
        .finally(() => (running = null));
    };
    const repetition = this.every(intervalMs, tick);
    return {
      tick,
      stop: async () => {
        stopped = true;
        repetition.cancel();
        await running;
      },
    };
  }
}

/** The runtime's interval timers, unreferenced. */
export class TimerScheduler extends Scheduler {
  every(intervalMs: number, task: () => void): Repetition {
    const timer = setInterval(task, intervalMs);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  }
}

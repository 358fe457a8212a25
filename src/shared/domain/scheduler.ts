/** A repetition started by a Scheduler; `cancel()` stops it (idempotent). */
export interface Repetition {
  cancel(): void;
}

/**
 * Port: clock-driven repetition ("every n ms"), so that application code schedules through an
 * injectable dependency instead of the runtime's timers — as "now" comes from Clock. Repetitions
 * never keep the process alive: a stopping process ends them by its shutdown, not by waiting.
 */
export abstract class Scheduler {
  abstract every(intervalMs: number, task: () => void): Repetition;
}

/** The runtime's interval timers, unreferenced. */
export class TimerScheduler extends Scheduler {
  every(intervalMs: number, task: () => void): Repetition {
    const timer = setInterval(task, intervalMs);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  }
}

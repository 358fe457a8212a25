/** A write waiting in a lane, and how to answer its caller. */
export interface Pending<W, R> {
  readonly write: W;
  resolve(result: R): void;
  reject(err: unknown): void;
}

interface Lane<W, R> {
  /** the unit in progress has taken longer than the patience: newcomers do not queue behind it */
  slow: boolean;
  readonly waiting: Array<Pending<W, R>>;
}

export interface NumberedBatchesOptions {
  /** at most this many writes in one batch */
  readonly max: number;
  /** how long writes wait behind a unit in progress before they run alone instead (a stalled lock) */
  readonly patienceMs: number;
}

/**
 * Per lane (e.g. one gapless counter), one unit of work at a time in this process: a write that comes
 * while its lane is idle runs alone at once; writes that come while it is busy wait, and the next unit
 * takes them all (up to `max`) as one batch. Writes never wait for company: a batch forms only from
 * writes that would otherwise have queued on the counter's lock in the database.
 *
 * This is throughput only; correctness stays with PostgreSQL (the counter's row lock), so any number
 * of instances can write the same counter. If a unit takes longer than `patienceMs` (its lock wait is
 * stalled), the writes waiting behind it, and those that come until it ends, run alone instead, each
 * under its own lock timeout, so no write waits for two.
 */
export class NumberedBatches<W, R> {
  /** a lane exists while a unit of it is in progress */
  private readonly lanes = new Map<string, Lane<W, R>>();

  constructor(
    /** runs one write on its own and answers it */
    private readonly alone: (write: W) => Promise<R>,
    /** runs several writes as one batch and answers every one of them before it resolves */
    private readonly together: (pending: ReadonlyArray<Pending<W, R>>) => Promise<void>,
    private readonly options: NumberedBatchesOptions = { max: 8, patienceMs: 250 },
  ) {}

  submit(laneKey: string, write: W): Promise<R> {
    const lane = this.lanes.get(laneKey);
    if (lane?.slow) return this.alone(write);
    return new Promise<R>((resolve, reject) => {
      const pending = { write, resolve, reject };
      if (lane) {
        lane.waiting.push(pending);
        return;
      }
      const fresh: Lane<W, R> = { slow: false, waiting: [pending] };
      this.lanes.set(laneKey, fresh);
      this.next(laneKey, fresh);
    });
  }

  private next(laneKey: string, lane: Lane<W, R>): void {
    const batch = lane.waiting.splice(0, this.options.max);
    if (batch.length === 0) {
      this.lanes.delete(laneKey);
      return;
    }
    lane.slow = false;
    const patience = setTimeout(() => {
      lane.slow = true;
      for (const pending of lane.waiting.splice(0)) this.alone(pending.write).then(pending.resolve, pending.reject);
    }, this.options.patienceMs);
    patience.unref?.();
    const unit =
      batch.length === 1
        ? this.runAlone(batch[0])
        : this.together(batch).catch((err: unknown) => {
            for (const pending of batch) pending.reject(err);
          });
    // the unit settles and never rejects (runAlone answers its caller; a failed batch rejects each of its writes)
    const moveOn = () => {
      clearTimeout(patience);
      this.next(laneKey, lane);
    };
    unit.then(moveOn, moveOn);
  }

  /** Answers `pending` from a run of its own; settles (never rejects) when that is done. */
  private runAlone(pending: Pending<W, R>): Promise<void> {
    return this.alone(pending.write).then(pending.resolve, pending.reject);
  }
}

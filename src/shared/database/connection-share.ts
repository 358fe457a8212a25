/**
 * A share of the database's connections for one kind of work (CONTRACT §20: attachment downloads): at most
 * `size` of its statements run at once, the rest wait their turn in order, so the other calls always find
 * the remaining connections. Per instance, as the pool it shares is.
 */
export class ConnectionShare {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Runs `work` once a place of the share is free, and frees it when `work` settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      // the place passes straight to the next in line; none waiting: it is freed
      if (next) next();
      else this.running--;
    }
  }

  /** Places taken now (metrics, and the tests' "nothing left held"). */
  get inUse(): number {
    return this.running;
  }
}

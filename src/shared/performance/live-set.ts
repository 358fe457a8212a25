// Performance trick 4 of docs/adr/0013 (gain, removal): a `Set` replacement for what is in flight.
// Held by live-set.spec.ts and graceful-shutdown.spec.ts (Set semantics; what scavenges promote).
/**
 * The objects that are live right now (requests in flight, sends running), for a long-lived owner that
 * adds and removes one at request rate.
 *
 * Why not a `Set`: V8 keeps a Set's entries in a hash table that it replaces by a fresh one once the
 * table is full of deleted entries, and the table it replaces keeps its entries and a pointer to its
 * successor (for iterators still running over it). As long as each table dies young nothing is lost.
 * But a full collection while requests are in flight moves the current table to the old generation;
 * from then on every dead table holds its successor, and the requests still in it, alive through each
 * scavenge until they are promoted too, and the chain goes on until the next full collection, which
 * starts it again if requests are in flight, which under load doubled the peak RSS and halved the 500-line
 * prepare rate (figures: ADR 0013, bench/RESULTS.md). Here the items sit in the slots of a plain
 * array, reused through a list of free slots: nothing points from one generation of items to the next.
 */
export class LiveSet<T extends object> implements Iterable<T> {
  private readonly slots: Array<T | undefined> = [];
  private readonly free: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `item`; returns the function that removes it again, safe to call any number of times. */
  add(item: T): () => void {
    const slot = this.free.length > 0 ? (this.free.pop() as number) : this.slots.length;
    this.slots[slot] = item;
    this.count++;
    return () => this.remove(slot, item);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const item of this.slots) if (item !== undefined) yield item;
  }

  private remove(slot: number, item: T): void {
    // a second call finds the slot empty, or already given to another item
    if (this.slots[slot] !== item) return;
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.count--;
  }
}

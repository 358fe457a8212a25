import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `batch` (one statement deleting at most `size` rows, answering how many it deleted) until a batch
 * comes back short or `stopping()` says so, resting after each batch as long as it took. A purge then uses
 * at most half of the time of the one connection it holds, so a backlog (the first run on a filled
 * database, a retention shortened) is worked off at half speed instead of crowding out the writes
 * (at full speed a backlog purge cut the rate and raised the p99 of creates; at half speed it still deletes far
 * more than the writes leave behind: bench/RESULTS.md, "Figures behind code comments"). Returns the rows deleted.
 */
export async function pacedBatches(size: number, batch: (size: number) => Promise<number>, stopping: () => boolean = () => false): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const n = await batch(size);
    total += n;
    if (n < size || stopping()) return total;
    await sleep(performance.now() - started, undefined, { ref: false }); // a rest never keeps the process alive
    if (stopping()) return total;
  }
}

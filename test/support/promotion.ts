import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * How much the old generation grows in the scavenges (young-generation collections) of a churn, in
 * bytes: what they promote. Shows whether removed items are kept alive past their time.
 *
 * The churn is the service's: `live` items in flight, each like a parsed request body (2,000 small
 * objects), added to a long-lived tracker by `track` (which returns the item's removal), then one full
 * collection while they are in flight (it moves what is live, the tracker's internals too, to the old
 * generation), then `rounds` times: the oldest item is removed and a new one added. Items that die once
 * removed cost nothing here; items kept alive by something the full collection promoted are copied
 * through the scavenges and promoted, ~70 KB each.
 *
 * Allocation-site pretenuring is switched off meanwhile: it would allocate straight into the old
 * generation once many items survive, and that is not counted as promotion.
 */
export async function promotedDuringChurn(track: (item: object) => () => void, { live = 16, rounds = 3000 } = {}): Promise<number> {
  const item = () => {
    const body = requestBody();
    return { body, remove: track(body) };
  };
  const inFlight = Array.from({ length: live }, item);
  return promotedAfterFullCollection(() => {
    for (let n = 0; n < rounds; n++) {
      inFlight.shift()!.remove();
      inFlight.push(item());
    }
  });
}

/** An object graph like a parsed request body: 2,000 small objects, ~70 KB. */
export const requestBody = () => ({ lines: Array.from({ length: 2000 }, (_, i) => ({ i })) });

/**
 * One full collection now (while the caller's work is in flight), then what the scavenges during
 * `work` promote, in bytes (see promotedDuringChurn).
 */
export async function promotedAfterFullCollection(work: () => void | Promise<void>): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  const profiler = new v8.GCProfiler();
  try {
    (vm.runInNewContext('gc') as () => void)();
    profiler.start();
    await work();
    const { statistics } = profiler.stop();
    const oldSpace = (at: { heapSpaceStatistics: v8.HeapSpaceStatistics[] }) =>
      at.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')!.spaceUsedSize;
    let promoted = 0;
    for (const gcRun of statistics) if (gcRun.gcType === 'Scavenge') promoted += oldSpace(gcRun.afterGC) - oldSpace(gcRun.beforeGC);
    return promoted;
  } finally {
    v8.setFlagsFromString('--allocation-site-pretenuring');
  }
}

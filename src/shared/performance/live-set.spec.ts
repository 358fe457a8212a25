import { promotedDuringChurn } from '../../../test/support/promotion';
import { LiveSet } from './live-set';

describe('LiveSet', () => {
  it('holds what was added and not yet removed', () => {
    const set = new LiveSet<{ n: number }>();
    const a = { n: 1 },
      b = { n: 2 },
      c = { n: 3 };
    set.add(a);
    const removeB = set.add(b);
    set.add(c);
    removeB();
    expect([...set]).toEqual([a, c]);
    expect(set.size).toBe(2);
  });

  it('removes an item once, however often its removal is called, also after its slot went to another item', () => {
    const set = new LiveSet<{ n: number }>();
    const a = { n: 1 },
      b = { n: 2 };
    const removeA = set.add(a);
    removeA();
    set.add(b); // takes a's slot
    removeA(); // e.g. 'close' after 'finish'
    expect([...set]).toEqual([b]);
    expect(set.size).toBe(1);
  });

  it('does not keep removed items alive after a full collection while items are live', async () => {
    // a Set, for comparison: its replaced hash tables link to their successors (see live-set.ts)
    const viaSet = new Set<object>();
    const setPromoted = await promotedDuringChurn((item) => {
      viaSet.add(item);
      return () => viaSet.delete(item);
    });
    const liveSet = new LiveSet<object>();
    const liveSetPromoted = await promotedDuringChurn((item) => liveSet.add(item));
    // 3,000 items of ~70 KB each: a Set keeps most of them alive into the old generation (~200 MB)
    expect(setPromoted).toBeGreaterThan(50 * 2 ** 20);
    expect(liveSetPromoted).toBeLessThan(5 * 2 ** 20);
  });
});

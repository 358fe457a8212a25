import { setTimeout as sleep } from 'node:timers/promises';
import { pacedBatches } from './paced-batches';

describe('pacedBatches', () => {
  it('runs batches until one comes back short, resting after each full batch about as long as it took', async () => {
    const sizes = [10, 10, 10, 4];
    const calls: number[] = [];
    const started = performance.now();
    const total = await pacedBatches(10, async (size) => {
      calls.push(size);
      await sleep(40);
      return sizes[calls.length - 1];
    });
    const elapsed = performance.now() - started;
    expect(total).toBe(34);
    expect(calls).toEqual([10, 10, 10, 10]);
    // 4 batches of 40 ms and 3 rests of about 40 ms: ~280 ms; without the rests ~160 ms
    expect(elapsed).toBeGreaterThanOrEqual(260);
  });

  it('stops after the current batch once stopping() says so', async () => {
    let calls = 0;
    let stop = false;
    const total = await pacedBatches(
      5,
      async () => {
        calls++;
        if (calls === 2) stop = true;
        return 5;
      },
      () => stop,
    );
    expect(calls).toBe(2);
    expect(total).toBe(10);
  });
});

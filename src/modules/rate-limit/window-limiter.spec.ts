import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../../shared/config/app-config';
import { decide, WINDOW_MS, type WindowDecision } from './sliding-window';
import { WindowLimiter } from './window-limiter';

/**
 * The in-process counters (MemoryMinutes) replaced rate-limiter-flexible's memory store (issue 37): the
 * decisions must be the ones the library's store gave, call for call. The reference is what WindowLimiter
 * did with it: read the previous minute's key, consume one in the current minute's, give it back if refused.
 */
function libraryReference(limit: number) {
  const store = new RateLimiterMemory({ points: limit, duration: (2 * WINDOW_MS) / 1000, keyPrefix: 'ref' });
  return {
    async take(key: string, nowMs: number): Promise<{ decision: WindowDecision; giveBack: () => Promise<void> }> {
      const minute = Math.floor(nowMs / WINDOW_MS);
      const currentKey = `${key}:${minute}`;
      const [previous, current] = await Promise.all([
        store.get(`${key}:${minute - 1}`),
        store.consume(currentKey, 1).catch((r: unknown) => {
          if (r instanceof RateLimiterRes) return r;
          throw r;
        }),
      ]);
      const decision = decide(limit, {
        previous: previous?.consumedPoints ?? 0,
        current: current.consumedPoints,
        elapsed: (nowMs - minute * WINDOW_MS) / WINDOW_MS,
      });
      const giveBack = async () => void (await store.reward(currentKey, 1));
      if (!decision.allowed) await giveBack();
      return { decision, giveBack: decision.allowed ? giveBack : async () => undefined };
    },
  };
}

describe('WindowLimiter in this process (no REDIS_URL)', () => {
  it('decides every call as rate-limiter-flexible’s memory store did, over three minutes of several keys with give-backs', async () => {
    const limit = 7;
    const ours = new WindowLimiter({ redisUrl: null } as unknown as AppConfig, limit, 'test');
    const ref = libraryReference(limit);
    // a pseudo-random but fixed sequence: 600 calls over ~3 minutes on 3 keys, every 4th allowed call given back
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 5_000;
    const seen: string[] = [];
    for (let i = 0; i < 600; i++) {
      now += Math.floor(next() * 600);
      const key = ['a', 'b', 'c'][Math.floor(next() * 3)];
      const a = await ours.takeCounted(key, now);
      const b = await ref.take(key, now);
      expect(a?.decision).toEqual(b.decision);
      if (i % 4 === 0) {
        await a!.giveBack();
        await b.giveBack();
      }
      // take (the partner path, no give-back) agrees too on a key of its own
      const own = await ours.take(`own-${key}`, now);
      const refOwn = await ref.take(`own-${key}`, now);
      expect(own).toEqual(refOwn.decision);
      seen.push(`${a!.decision.allowed}`);
    }
    // the sequence reached both outcomes
    expect(seen).toContain('true');
    expect(seen).toContain('false');
    ours.close();
  });
});

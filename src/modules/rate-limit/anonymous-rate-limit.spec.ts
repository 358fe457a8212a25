import { AnonymousRateLimit } from './anonymous-rate-limit';
import type { AppConfig } from '../../shared/config/app-config';

const LIMIT = 10;
const limiter = () => new AnonymousRateLimit({ rateLimitAnonymousPerMinute: LIMIT, redisUrl: null, redisKeyPrefix: 'unit:' } as AppConfig);

describe('the anonymous limit (CONTRACT §12, issue 35)', () => {
  // 20 s into a minute, so that the window's arithmetic is not at an edge
  const start = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

  it('a refusal lasts at most until its Retry-After: the call sent then gets in', async () => {
    const limit = limiter();
    for (let i = 0; i < LIMIT; i++) expect((await limit.take('oauth', '203.0.113.1', start + i)).retryAfter).toBeNull();
    const refused = await limit.take('oauth', '203.0.113.1', start + 100);
    // 20.1 s into the minute: its 10 calls count fully for 39.9 s more, then weighted by the part of the
    // previous minute still in the window; one more fits once 10·(1 − e) + 1 ≤ 10, e ≥ 0.1: 6 s into the next
    expect(refused.retryAfter).toBe(46);
    // one second before: still refused; at the Retry-After: admitted
    expect((await limit.take('oauth', '203.0.113.1', start + 100 + 45_000)).retryAfter).not.toBeNull();
    expect((await limit.take('oauth', '203.0.113.1', start + 100 + 46_000)).retryAfter).toBeNull();
    await limit.onModuleDestroy();
  });

  it('forms, OAuth clients and partner 401s each have their own budget per address', async () => {
    const limit = limiter();
    for (let i = 0; i < LIMIT; i++) await limit.take('oauth', '203.0.113.2', start);
    expect((await limit.take('oauth', '203.0.113.2', start)).retryAfter).not.toBeNull();
    expect((await limit.take('form', '203.0.113.2', start)).retryAfter).toBeNull();
    expect((await limit.take('partner', '203.0.113.2', start)).retryAfter).toBeNull();
    await limit.onModuleDestroy();
  });

  it('a call given back does not count', async () => {
    const limit = limiter();
    for (let i = 0; i < 3 * LIMIT; i++) await (await limit.take('oauth', '203.0.113.3', start)).giveBack();
    for (let i = 0; i < LIMIT; i++) expect((await limit.take('oauth', '203.0.113.3', start)).retryAfter).toBeNull();
    expect((await limit.take('oauth', '203.0.113.3', start)).retryAfter).not.toBeNull();
    await limit.onModuleDestroy();
  });

  it('counts an IPv6 client by its /64', async () => {
    const limit = limiter();
    for (let i = 1; i <= LIMIT; i++) await limit.take('partner', `2001:db8:9:9::${i}`, start);
    expect((await limit.take('partner', '2001:db8:9:9:abcd::1', start)).retryAfter).not.toBeNull();
    expect((await limit.take('partner', '2001:db8:9:a::1', start)).retryAfter).toBeNull();
    await limit.onModuleDestroy();
  });
});

import { randomUUID } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Redis from 'ioredis';
import { AnonymousRateLimit } from '../../src/modules/rate-limit/anonymous-rate-limit';
import { RateLimitService } from '../../src/modules/rate-limit/rate-limit.service';
import { hashAccessToken } from '../../src/modules/auth/access/domain/access-token';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { eventually } from '../support/wait';
import { freePort } from '../support/free-port';
import { type ServiceProcess, startService, stopService, waitForReady } from '../support/service-process';
import { createTestApp, describeNothing, onPostgres, TEST_REDIS_URL, testConfig, testRedisPrefix } from '../support/test-app';

/**
 * CONTRACT §12 across instances: with REDIS_URL every instance shares the counters (the limit holds
 * within 5 % for a token spread over instances); Redis unreachable → fail open. Redis runs at
 * 127.0.0.1:6379 on development and CI machines. Every run uses its own key prefix.
 */
const REDIS_URL = TEST_REDIS_URL;
const ROOT = join(__dirname, '..', '..');

async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

describe('rate limit through Redis (CONTRACT §12)', () => {
  // first in this file: nestjs-pino keeps the stream of the first app that logs for the whole process
  it('fails open when Redis cannot be reached: calls go through, readiness stays 200, one warning', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const app = await createTestApp({ rateLimitPerMinute: 2, redisUrl: 'redis://127.0.0.1:1', logLevel: 'warn' }, { logStream });
    try {
      const p = await aSandboxProject(app);
      for (let i = 0; i < 6; i++) {
        const res = await app
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${p.token}`)
          .send(aJournal(p.accounts.map((a) => a.id)));
        expect(res.status).toBe(200);
      }
      expect((await app.partner().get('/health/ready')).status).toBe(200);
      const warnings = lines.filter((l) => l.includes('rate-limit store unreachable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"level":40');
    } finally {
      await app.close();
    }
  });

  it('counts in Redis: another limiter on the same Redis sees the calls of this instance', async () => {
    const prefix = testRedisPrefix();
    const app = await createTestApp({ rateLimitPerMinute: 5, redisUrl: REDIS_URL, redisKeyPrefix: prefix });
    const other = new RateLimitService(testConfig({ rateLimitPerMinute: 5, redisUrl: REDIS_URL, redisKeyPrefix: prefix }));
    try {
      const p = await aSandboxProject(app);
      // a fresh instance lets calls through until its Redis connection is ready (fail open)
      const limiter = app.apps.partner.get(RateLimitService);
      await eventually(() => limiter.storeReady && other.storeReady, 'both limiters connected to Redis', 60_000);
      expect(limiter.storeReady && other.storeReady).toBe(true);
      if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));
      const call = () =>
        app
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${p.token}`)
          .send(aJournal(p.accounts.map((a) => a.id)));
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      // the 4th call of this token, counted by a second instance
      const fourth = await other.take(hashAccessToken(p.token));
      expect(fourth?.allowed).toBe(true);
      expect(fourth?.headers.RateLimit).toBe('"partner";r=1;t=0');
      expect((await call()).status).toBe(200);
      const sixth = await call();
      expect(sixth.status).toBe(429);
      expect(sixth.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    } finally {
      await other.onModuleDestroy();
      await app.close();
      await deleteKeys(prefix);
    }
  });
});

describe('the anonymous limit through Redis (CONTRACT §12)', () => {
  it("counts in Redis: another instance's limiter on the same Redis sees the calls of this one", async () => {
    const prefix = testRedisPrefix();
    const app = await createTestApp({ rateLimitAnonymousPerMinute: 4, redisUrl: REDIS_URL, redisKeyPrefix: prefix });
    const other = new AnonymousRateLimit(testConfig({ rateLimitAnonymousPerMinute: 4, redisUrl: REDIS_URL, redisKeyPrefix: prefix }));
    try {
      const limiter = app.apps.partner.get(AnonymousRateLimit);
      await eventually(() => limiter.storeReady && other.storeReady, 'both limiters connected to Redis', 60_000);
      expect(limiter.storeReady && other.storeReady).toBe(true);
      if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));
      const call = () => app.partner().post(`${SANDBOX}/journal/prepare`).send({});
      for (let i = 0; i < 2; i++) expect((await call()).status).toBe(401);
      // the 3rd anonymous call of 127.0.0.1, counted by a second instance
      expect((await other.take('partner', '127.0.0.1')).retryAfter).toBeNull();
      expect((await call()).status).toBe(401);
      const fifth = await call();
      expect(fifth.status).toBe(429);
      expect(fifth.body.code).toBe('rate_limited');
      expect(fifth.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      // and the other instance refuses the address too
      expect((await other.take('partner', '127.0.0.1')).retryAfter).toBeGreaterThanOrEqual(1);
    } finally {
      await other.onModuleDestroy();
      await app.close();
      await deleteKeys(prefix);
    }
  });
});

(onPostgres() ? describe : describeNothing)('two service instances share one limit through Redis (PostgreSQL)', () => {
  const prefix = testRedisPrefix();
  const consoleKey = `shared-limit-console-key-${randomUUID()}`;
  const instances: ServiceProcess[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const consolePort = await freePort();
      ports.push(port, consolePort);
      instances.push(
        startService({
          DATABASE_URL: process.env.TEST_DATABASE_URL!,
          PORT: String(port),
          CONSOLE_PORT: String(consolePort),
          HOST: '127.0.0.1',
          CONSOLE_API_KEY: consoleKey,
          DATA_DIR: mkdtempSync(join(tmpdir(), 'partner-api-limit-')),
          REDIS_URL,
          REDIS_KEY_PREFIX: prefix,
          RATE_LIMIT_PER_MINUTE: '100',
          RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10',
          SECRETS_KEY: `v1:${Buffer.alloc(32, 0x5a).toString('base64url')}`,
        }),
      );
    }
    // ceilings for a busy machine: two service processes start side by side
    await Promise.all([0, 1].map((i) => waitForReady(`http://127.0.0.1:${ports[2 * i]}/health/ready`, 150_000, instances[i])));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => stopService(i)));
    await deleteKeys(prefix);
  });

  it('lets 100 ± 5 % of 300 calls of one token through, spread over both instances', async () => {
    const res = await fetch(`http://127.0.0.1:${ports[1]}/console/v1/sandbox/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${consoleKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    const project = (await res.json()) as { token: string; accounts: Array<{ id: string }> };
    const body = JSON.stringify(aJournal(project.accounts.map((a) => a.id)));
    if (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));
    const statuses: number[] = [];
    const byInstance = [0, 0];
    for (let batch = 0; batch < 30; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`http://127.0.0.1:${ports[2 * (i % 2)]}${SANDBOX}/journal/prepare`, {
            method: 'POST',
            headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' },
            body,
          }).then(async (r) => {
            await r.arrayBuffer();
            if (r.status === 200) byInstance[i % 2]++;
            return r.status;
          }),
        ),
      );
      statuses.push(...answers);
    }
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(ok).toBeGreaterThanOrEqual(95);
    expect(ok).toBeLessThanOrEqual(105);
    // both instances served calls: the limit is shared, not per instance (alone each would allow 100)
    expect(byInstance[0]).toBeGreaterThan(0);
    expect(byInstance[1]).toBeGreaterThan(0);
  }, 180_000);

  // last: it leaves 127.0.0.1 over the anonymous limit, which refuses tokens these instances have not seen yet
  it('shares the anonymous limit: 10 calls without a token over both instances, the 11th is 429 on either', async () => {
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));
    const call = async (i: number) => {
      const r = await fetch(`http://127.0.0.1:${ports[2 * (i % 2)]}${SANDBOX}/journal/prepare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await r.arrayBuffer();
      return { status: r.status, retryAfter: r.headers.get('retry-after') };
    };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await call(i)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    for (const i of [0, 1]) {
      const over = await call(i);
      expect(over.status).toBe(429);
      expect(over.retryAfter).toMatch(/^[1-9]\d*$/);
    }
  });
});

describe("finding 6: the embedded store's files under a common umask (CONTRACT §8)", () => {
  // umask 022, as on a typical machine: what the service writes must still be 0600/0700
  const start = (dataDir: string, port: number): ServiceProcess =>
    startService({ DATA_DIR: dataDir, PORT: String(port), CONSOLE_PORT: '0', HOST: '127.0.0.1' }, { umask: '022' });

  it("keeps every file 0600 and directory 0700 (PGlite's included); a DATA_DIR open to others stops the start", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'partner-api-umask-')), 'data');
    const port = await freePort();
    const first = start(dataDir, port);
    try {
      // a new PGlite cluster (initdb, migrations): seconds on a quiet machine, over a minute at load 20
      await waitForReady(`http://127.0.0.1:${port}/health/ready`, 240_000, first);
    } finally {
      await stopService(first);
    }
    const loose: string[] = [];
    let files = 0;
    const walk = (dir: string) => {
      if ((lstatSync(dir).mode & 0o777) !== 0o700) loose.push(`${dir} ${(lstatSync(dir).mode & 0o777).toString(8)}`);
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.isFile()) {
          files++;
          if ((lstatSync(path).mode & 0o777) !== 0o600) loose.push(`${path} ${(lstatSync(path).mode & 0o777).toString(8)}`);
        }
      }
    };
    walk(dataDir);
    expect(files).toBeGreaterThan(100); // PGlite's cluster is in there
    expect(loose).toEqual([]);

    chmodSync(dataDir, 0o755);
    const second = start(dataDir, port);
    expect(await second.exited).toBe(1);
    const err = second.stderr().trim();
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toContain(`DATA_DIR ${dataDir} can be read or written by other users`);
  }, 300_000);
});

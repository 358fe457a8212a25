import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { parseConnectionUri } from '../../src/shared/database/connection-uri';
import { HostSelector, selectingClientClass } from '../../src/shared/database/host-selection';
import { aSandboxProject, SANDBOX } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { withNewDatabase } from '../support/new-database';
import { startService, stopService, waitForReady } from '../support/service-process';
import { createTestApp, describeOnPostgres, TEST_SECRETS_KEY } from '../support/test-app';

/**
 * CONTRACT §16, several hosts: `DATABASE_URL` lists hosts as libpq does; the service uses the one that
 * accepts writes, trying them in order, and drops a connection whose host stopped accepting them. The
 * hosts here: a port nobody listens on, then the test's PostgreSQL; "a standby" is the test database
 * with default_transaction_read_only on, which a server reports to every session as a standby does.
 */
describeOnPostgres('several database hosts (CONTRACT §16)', () => {
  const multiHost = async (url: string) => {
    const u = new URL(url);
    return `postgres://${u.username}@127.0.0.1:${await freePort()},${u.hostname}:${u.port}${u.pathname}?target_session_attrs=read-write`;
  };

  it('serves reads and writes through the first host that accepts writes, and readiness follows it', async () => {
    await withNewDatabase('several_hosts', async (url) => {
      const app = await createTestApp({ database: { kind: 'postgres', url: await multiHost(url) } });
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        const project = await aSandboxProject(app);
        const product = () =>
          app
            .partner()
            .post(`${SANDBOX}/products`)
            .set('Authorization', `Bearer ${project.token}`)
            .set('Idempotency-Key', randomUUID())
            .send({ code: `H-${randomUUID().slice(0, 8)}`, name: 'Vare' });
        expect((await product()).status).toBe(201);
        expect((await app.partner().get('/health/ready')).status).toBe(200);

        // every host a standby: the pool's sessions end (as at a failover), new ones find no writable host
        await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET default_transaction_read_only = on`);
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        const before = Number((await admin.query(`SELECT count(*)::int AS n FROM products`)).rows[0].n);
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await product());
        for (const res of answers) {
          expect(res.status).toBe(503);
          expect(res.body.code).toBe('service_unavailable');
          expect(res.headers['retry-after']).toBeDefined();
        }
        const ready = await app.partner().get('/health/ready');
        expect(ready.status).toBe(503);
        expect(ready.headers['retry-after']).toBeDefined();
        expect(Number((await admin.query(`SELECT count(*)::int AS n FROM products`)).rows[0].n)).toBe(before);

        // the "promotion": the host takes writes again, and the next connection finds it
        await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" RESET default_transaction_read_only`);
        expect((await app.partner().get('/health/ready')).status).toBe(200);
        expect((await product()).status).toBe(201);
      } finally {
        await admin.end();
        await app.close();
      }
    });
  });

  it('drops a pooled connection on its first write refused as read-only (25006), and never hands it out again', async () => {
    await withNewDatabase('several_hosts', async (url) => {
      const uri = parseConnectionUri(await multiHost(url));
      const logged: string[] = [];
      const selector = new HostSelector(uri.hosts, uri.targetSessionAttrs, uri.urlFor, {
        log: (m: string) => logged.push(m),
        warn: (m: string) => logged.push(m),
      });
      const pool = new Pool({ connectionString: uri.singleHostUrl, Client: selectingClientClass(selector), max: 1 });
      // as TypeORM's pool: a dropped client still closing when the database is dropped reports through the pool
      pool.on('error', () => undefined);
      try {
        await pool.query('CREATE TABLE t (x int)');
        expect(logged).toEqual([`database: writable host is ${uri.hosts[1].host}:${uri.hosts[1].port}`]);
        const client = await pool.connect();
        const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        // the session's host stops accepting writes while the connection sits in the pool
        await client.query('SET default_transaction_read_only = on');
        const refused = await client.query('INSERT INTO t VALUES (1)').catch((err: { code?: string }) => err);
        expect((refused as { code?: string }).code).toBe('25006');
        client.release();
        expect(pool.totalCount).toBe(0);
        const next = await pool.connect();
        try {
          expect((await next.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).not.toBe(pid);
          await next.query('INSERT INTO t VALUES (2)');
        } finally {
          next.release();
        }
        expect((await pool.query('SELECT x FROM t')).rows).toEqual([{ x: 2 }]);
      } finally {
        await pool.end();
      }
    });
  });

  it('started on a URI whose hosts are all standbys: liveness 200, readiness and writes 503 with Retry-After, never 500, until one is promoted', async () => {
    await withNewDatabase('several_hosts', async (url) => {
      const admin = new Client({ connectionString: url });
      await admin.connect();
      const dataDir = mkdtempSync(join(tmpdir(), 'several-hosts-'));
      const db = `"${new URL(url).pathname.slice(1)}"`;
      await admin.query(`ALTER DATABASE ${db} SET default_transaction_read_only = on`);
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      // the suites' key: this worker's database has secrets sealed under it (CONTRACT §8)
      const proc = startService({
        DATABASE_URL: await multiHost(url),
        HOST: '127.0.0.1',
        PORT: String(port),
        CONSOLE_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        SECRETS_KEY: TEST_SECRETS_KEY,
      });
      try {
        let ready: Response | null = null;
        const end = Date.now() + 30_000;
        while (!ready && Date.now() < end) {
          ready = await fetch(`${origin}/health/ready`).catch(() => null);
          if (!ready) await new Promise((r) => setTimeout(r, 100));
        }
        expect(ready?.status).toBe(503);
        expect(ready?.headers.get('retry-after')).toBe('5');
        expect((await fetch(`${origin}/health/live`)).status).toBe(200);
        const write = await fetch(`${origin}${SANDBOX}/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer x', 'idempotency-key': randomUUID() },
          body: '{}',
        });
        expect(write.status).toBe(503);
        expect(write.headers.get('content-type')).toContain('application/problem+json');
        expect(((await write.json()) as { code: string }).code).toBe('service_unavailable');
        // nothing was written to the standby: not even the migrations
        expect((await admin.query(`SELECT to_regclass('public.products') AS t`)).rows[0].t).toBeNull();
        expect(proc.stderr()).toContain('waiting for a database host that accepts writes');
        expect(proc.stderr()).not.toContain('start failed');

        await admin.query(`ALTER DATABASE ${db} RESET default_transaction_read_only`);
        expect(await waitForReady(`${origin}/health/ready`, 150_000, proc)).toBeLessThan(150_000);
      } finally {
        expect(await stopService(proc)).toBe(0);
        await admin.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }, 180_000);

  it('says once a minute, not per connection, that no host accepts writes', async () => {
    const logged: string[] = [];
    let now = 0;
    const port = await freePort();
    const hosts = [{ host: '127.0.0.1', port }];
    const selector = new HostSelector(
      hosts,
      'read-write',
      () => `postgres://postgres@127.0.0.1:${port}/x`,
      { log: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) },
      () => now,
    );
    for (const t of [0, 10_000, 59_999, 60_000, 61_000]) {
      now = t;
      await expect(selector.pick()).rejects.toMatchObject({ code: '08001' });
    }
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^database: no host accepts writes: 127\.0\.0\.1:\d+ unreachable \(ECONNREFUSED\)/);
  });
});

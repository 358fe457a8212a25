import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../support/free-port';
import { type ServiceProcess, startService, stopService, waitForReady } from '../support/service-process';
import { describeOnPostgres } from '../support/test-app';

/**
 * Correctness across instances comes from PostgreSQL, not process memory (CONTRACT §6): two service
 * processes against one database, concurrent identical requests split across them → one product.
 * Only meaningful on PostgreSQL (PGlite belongs to one process); it runs in CI's PostgreSQL pass.
 */
describeOnPostgres('two service instances on one PostgreSQL database', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const key = `two-instances-console-key-${randomUUID()}`;
  const instances: ServiceProcess[] = [];
  const ports: number[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ports.push(port);
      dirs.push(mkdtempSync(join(tmpdir(), 'partner-api-two-')));
      instances.push(startService({
        DATABASE_URL: url, PORT: String(port), CONSOLE_PORT: String(await freePort()), HOST: '127.0.0.1',
        CONSOLE_API_KEY: key, DATA_DIR: dirs[i],
      }));
    }
    await Promise.all(ports.map((p, i) => waitForReady(`http://127.0.0.1:${p}/health/ready`, 60_000, instances[i])));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => stopService(i)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('creates exactly one product for 20 concurrent identical requests split across both', async () => {
    const consolePort = /Console API listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(instances[0].stdout())![1];
    const projectRes = await fetch(`http://127.0.0.1:${consolePort}/console/v1/sandbox/projects`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}',
    });
    expect(projectRes.status).toBe(201);
    const project = (await projectRes.json()) as { token: string };
    const idempotencyKey = randomUUID();
    const code = `TWO-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`http://127.0.0.1:${ports[i % 2]}/api/partner/sandbox/v1/products`, {
          method: 'POST',
          headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body: JSON.stringify({ code, name: 'Two instances' }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string; replayed: boolean } })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM products WHERE code = $1`, [code]);
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });
});

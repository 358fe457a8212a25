import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { EMBEDDED_STORE_NETWORKS } from '../../src/shared/domain/allowed-networks';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { aJournal } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { withNewDatabase } from '../support/new-database';
import { type ServiceProcess, startService, stopService, waitForReady } from '../support/service-process';
import { describeOnPostgres, TEST_SECRETS_KEY } from '../support/test-app';
import { eventually } from '../support/wait';

const ROOT = join(__dirname, '..', '..');

interface Instance {
  proc: ServiceProcess;
  port: number;
  consolePort: number;
  dataDir: string;
}

/** A built service process on `url`; SECRETS_KEY when given, else generated into its own DATA_DIR. */
async function anInstance(
  url: string,
  consoleKey: string,
  secretsKey: string | null,
  dataDir = mkdtempSync(join(tmpdir(), 'partner-api-two-')),
): Promise<Instance> {
  const [port, consolePort] = [await freePort(), await freePort()];
  const proc = startService({
    DATABASE_URL: url,
    PORT: String(port),
    CONSOLE_PORT: String(consolePort),
    HOST: '127.0.0.1',
    CONSOLE_API_KEY: consoleKey,
    DATA_DIR: dataDir,
    WEBHOOK_ALLOWED_NETWORKS: EMBEDDED_STORE_NETWORKS,
    ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}),
  });
  return { proc, port, consolePort, dataDir };
}

async function call(port: number, path: string, init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
    body: init.method === 'GET' ? undefined : JSON.stringify(init.body ?? {}),
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, any> };
}

/** `npm run migrate`'s program (built) against `url` with DATA_DIR `dataDir` and SECRETS_KEY when given. */
function migrate(url: string, dataDir: string, secretsKey: string | null): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'shared', 'database', 'migrate.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, DATA_DIR: dataDir, ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The one line an instance with the wrong keys stops with: names SECRETS_KEY and the version, never a key. */
function expectKeyRefusal(stderr: string, version: string, keys: string[]): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('SECRETS_KEY');
  expect(lines[0]).toContain(version);
  for (const key of keys) expect(stderr).not.toContain(key.replace(/^v\d+:/, ''));
}

/**
 * Correctness across instances comes from PostgreSQL, not process memory (CONTRACT §6), and every
 * instance of one database needs the same SECRETS_KEY (CONTRACT §8): two service processes against one
 * database. Only meaningful on PostgreSQL (PGlite belongs to one process); it runs in CI's PostgreSQL pass.
 */
describeOnPostgres('two service instances on one PostgreSQL database, with the same SECRETS_KEY', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const key = `two-instances-console-key-${randomUUID()}`;
  const instances: Instance[] = [];

  beforeAll(async () => {
    // the suites' key: this database is shared with the other suites of the worker
    for (let i = 0; i < 2; i++) instances.push(await anInstance(url, key, TEST_SECRETS_KEY));
    // ceilings for a busy machine: two processes start side by side
    await Promise.all(instances.map((i) => waitForReady(`http://127.0.0.1:${i.port}/health/ready`, 150_000, i.proc)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => stopService(i.proc)));
    for (const i of instances) rmSync(i.dataDir, { recursive: true, force: true });
  });

  it('creates exactly one product for 20 concurrent identical requests split across both', async () => {
    const projectRes = await call(instances[0].consolePort, '/console/v1/sandbox/projects', { key });
    expect(projectRes.status).toBe(201);
    const project = projectRes.body as { token: string };
    const idempotencyKey = randomUUID();
    const code = `TWO-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(instances[i % 2].port, '/api/partner/sandbox/v1/products', {
          key: project.token,
          headers: { 'idempotency-key': idempotencyKey },
          body: { code, name: 'Two instances' },
        }),
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

  it('an owner enrolled through one instance gives a grant through the other (the TOTP secret opens there)', async () => {
    const [a, b] = instances;
    const org = await call(a.consolePort, '/console/v1/organizations', { key, body: { name: 'Two keys ApS' } });
    const account = await call(a.consolePort, `/console/v1/organizations/${org.body.id}/accounts`, { key, body: { number: '1000', name: 'Kasse' } });
    const owner = await call(a.consolePort, `/console/v1/organizations/${org.body.id}/owners`, { key, body: { email: `two-${randomUUID()}@example.dk` } });
    const theApp = await call(a.consolePort, '/console/v1/apps', { key, body: { name: 'Two keys app' } });
    const rev = await call(a.consolePort, `/console/v1/apps/${theApp.body.id}/revisions`, { key });
    expect((await call(a.consolePort, `/console/v1/apps/${theApp.body.id}/revisions/${rev.body.id}/approve`, { key })).status).toBe(200);
    const grant = await call(b.consolePort, `/console/v1/organizations/${org.body.id}/grants`, {
      key,
      body: {
        app_id: theApp.body.id,
        owner_user_id: owner.body.user_id,
        totp_code: totpCodeAt(owner.body.totp_secret, Date.now()),
        account_ids: [account.body.id],
        scopes: ['journal:prepare'],
      },
    });
    expect(grant.status).toBe(201);
  });

  it('a webhook endpoint registered through one instance is signed by the other', async () => {
    const [a, b] = instances;
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const project = (await call(a.consolePort, '/console/v1/sandbox/projects', { key })).body as {
        token: string;
        app_id: string;
        accounts: Array<{ id: string }>;
      };
      const endpoint = await call(a.consolePort, `/console/v1/apps/${project.app_id}/webhook-endpoints`, {
        key,
        body: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, environment: 'sandbox' },
      });
      expect(endpoint.status).toBe(201);
      // only the other instance is left to claim and sign the event
      expect(await stopService(a.proc)).toBe(0);
      const posted = await call(b.port, '/api/partner/sandbox/v1/journal', {
        key: project.token,
        headers: { 'idempotency-key': randomUUID() },
        body: aJournal(project.accounts.map((x) => x.id)),
      });
      expect(posted.status).toBe(201);
      await eventually(() => received.length >= 1, 'the event', 10_000);
      const event = new Webhook(endpoint.body.secret).verify(received[0].body, received[0].headers as Record<string, string>) as {
        data: { operation_id: string };
      };
      expect(event.data.operation_id).toBe(posted.body.operation_id);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 180_000);
});

describeOnPostgres('instances with different SECRETS_KEYs on one PostgreSQL database (CONTRACT §8)', () => {
  const key = `two-keys-console-key-${randomUUID()}`;

  it('the second of two instances with different generated keys stops at once (exit 1, one line); migrate too; rotation works', async () => {
    await withNewDatabase('two_keys', async (url) => {
      const started: Instance[] = [];
      try {
        const first = await anInstance(url, key, null);
        started.push(first);
        // generous bounds: on a loaded 2-core machine a start takes long
        await waitForReady(`http://127.0.0.1:${first.port}/health/ready`, 150_000, first.proc);
        const firstKey = readFileSync(join(first.dataDir, 'secrets-key'), 'utf8').trim();
        // an owner whose TOTP secret is sealed under the first instance's generated v1
        const org = await call(first.consolePort, '/console/v1/organizations', { key, body: { name: 'Keys ApS' } });
        const account = await call(first.consolePort, `/console/v1/organizations/${org.body.id}/accounts`, { key, body: { number: '1000', name: 'Kasse' } });
        const owner = await call(first.consolePort, `/console/v1/organizations/${org.body.id}/owners`, {
          key,
          body: { email: `keys-${randomUUID()}@example.dk` },
        });
        expect(owner.status).toBe(201);
        const theApp = await call(first.consolePort, '/console/v1/apps', { key, body: { name: 'Keys app' } });
        const rev = await call(first.consolePort, `/console/v1/apps/${theApp.body.id}/revisions`, { key });
        await call(first.consolePort, `/console/v1/apps/${theApp.body.id}/revisions/${rev.body.id}/approve`, { key });

        // another DATA_DIR generates another v1 key: refused before it listens
        const second = await anInstance(url, key, null);
        started.push(second);
        const t0 = Date.now();
        expect(await second.proc.exited).toBe(1);
        expect(Date.now() - t0).toBeLessThan(90_000); // it never listens: see the fetch below
        const secondKey = readFileSync(join(second.dataDir, 'secrets-key'), 'utf8').trim();
        expect(secondKey).not.toBe(firstKey);
        expectKeyRefusal(second.proc.stderr(), 'v1', [firstKey, secondKey]);
        await expect(fetch(`http://127.0.0.1:${second.port}/health/ready`)).rejects.toThrow();
        expect(second.proc.stdout()).not.toContain('listening'); // refused before it listened

        // npm run migrate with the wrong key: exit 1, the same kind of line; with the right one: 0
        const wrong = await migrate(url, second.dataDir, null);
        expect(wrong.code).toBe(1);
        expectKeyRefusal(wrong.stderr, 'v1', [firstKey, secondKey]);
        // the first instance holds its DATA_DIR (one process per DATA_DIR): migrate with its key from another one
        const migrateDir = mkdtempSync(join(tmpdir(), 'partner-api-two-migrate-'));
        try {
          const right = await migrate(url, migrateDir, firstKey);
          expect(right.stderr).toBe('');
          expect(right.code).toBe(0);
        } finally {
          rmSync(migrateDir, { recursive: true, force: true });
        }

        // rotation: v2 listed first with the first instance's v1 serves, reseals, and signs with the owner's secret
        const v2 = `v2:${Buffer.alloc(32, 0x42).toString('base64url')}`;
        const rotated = await anInstance(url, key, `${v2},${firstKey}`);
        started.push(rotated);
        await waitForReady(`http://127.0.0.1:${rotated.port}/health/ready`, 150_000, rotated.proc);
        const grant = await call(rotated.consolePort, `/console/v1/organizations/${org.body.id}/grants`, {
          key,
          body: {
            app_id: theApp.body.id,
            owner_user_id: owner.body.user_id,
            totp_code: totpCodeAt(owner.body.totp_secret, Date.now()),
            account_ids: [account.body.id],
            scopes: ['journal:prepare'],
          },
        });
        expect(grant.status).toBe(201);
        // the secrets are now under v2: an instance that lists only the old v1 stops, naming v2
        const stale = await anInstance(url, key, firstKey);
        started.push(stale);
        expect(await stale.proc.exited).toBe(1);
        expectKeyRefusal(stale.proc.stderr(), 'v2', [firstKey, v2]);
      } finally {
        await Promise.all(started.map((i) => stopService(i.proc)));
        for (const i of started) rmSync(i.dataDir, { recursive: true, force: true });
      }
    });
  }, 480_000);
});

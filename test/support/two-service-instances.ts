import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxProject } from './fixtures';
import { freePort } from './free-port';
import { type ServiceProcess, startService, stopService, waitForReady } from './service-process';
import { TEST_SECRETS_KEY } from './test-app';

export interface TwoInstances {
  /** the partner ports of the two service processes, filled once `beforeAll` has run */
  readonly ports: number[];
  /** their console ports (GET /metrics, the console API) */
  readonly consolePorts: number[];
  /** a new sandbox project, made through the first instance's console API */
  aProject(): Promise<SandboxProject>;
}

/**
 * Two service processes on this worker's PostgreSQL database (TEST_DATABASE_URL), each with its own data
 * folder, no rate limits, the suites' secrets key and `env` over these (this database has secrets sealed under it, CONTRACT
 * §8): started in the calling describe's `beforeAll`, stopped and cleaned up in its `afterAll`.
 */
export function twoServiceInstances(name: string, env: Record<string, string> = {}): TwoInstances {
  const key = `${name}-console-key-${randomUUID()}`;
  const instances: ServiceProcess[] = [];
  const ports: number[] = [];
  const consolePorts: number[] = [];
  const dirs: string[] = [];
  let consolePort = 0;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const console = await freePort();
      if (i === 0) consolePort = console;
      ports.push(port);
      consolePorts.push(console);
      dirs.push(mkdtempSync(join(tmpdir(), `partner-api-${name}-`)));
      instances.push(
        startService({
          DATABASE_URL: process.env.TEST_DATABASE_URL!,
          PORT: String(port),
          CONSOLE_PORT: String(console),
          HOST: '127.0.0.1',
          CONSOLE_API_KEY: key,
          DATA_DIR: dirs[i],
          RATE_LIMIT_PER_MINUTE: '0',
          RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0',
          SECRETS_KEY: TEST_SECRETS_KEY,
          ...env,
        }),
      );
    }
    await Promise.all(ports.map((p, i) => waitForReady(`http://127.0.0.1:${p}/health/ready`, 60_000, instances[i])));
    // ready on the partner listener means the whole instance: its console answers at once, without a retry
    for (const c of consolePorts) expect((await fetch(`http://127.0.0.1:${c}/metrics`)).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => stopService(i)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  return {
    ports,
    consolePorts,
    aProject: async () => {
      const res = await fetch(`http://127.0.0.1:${consolePort}/console/v1/sandbox/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(201);
      return (await res.json()) as SandboxProject;
    },
  };
}

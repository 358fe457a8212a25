import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { freePort } from '../support/free-port';
import { waitForReady } from '../support/service-process';

const ROOT = join(__dirname, '..', '..');
const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;

/**
 * Issue 15: the README's two commands run on the pinned Node 24 (the registry's `node` package, a dev
 * dependency) whatever the system's Node is.
 */
describe('the runtime of npm test and npm start', () => {
  it('pins Node 24 LTS', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
  });

  // npm sets npm_lifecycle_event for the scripts it runs; a bare `jest` from a shell is not `npm test`
  const byNpm = process.env.npm_lifecycle_event?.startsWith('test') === true;
  (byNpm ? it : it.skip)(`npm test runs the tests on it${byNpm ? '' : ' — SKIPPED: jest was not started by npm test'}`, () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('npm start runs the service on it, from a shell whose PATH finds the system node first, without rebuilding', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'partner-api-npm-start-'));
    const port = await freePort();
    // what a user's shell has: no node_modules/.bin of this project (npm adds it for its scripts)
    const PATH = (process.env.PATH ?? '').split(delimiter).filter((p) => !p.endsWith(`node_modules${sep}.bin`)).join(delimiter);
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true, // its own process group: npm, sh and node stop together
      env: { PATH, HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, PORT: String(port), CONSOLE_PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitForReady(`http://127.0.0.1:${port}/health/ready`, 120_000);
      expect(out).toContain(`(Node v${pinned})`);
      expect(err).toContain('dist/ is up to date'); // npm test built it: npm start did not build again
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

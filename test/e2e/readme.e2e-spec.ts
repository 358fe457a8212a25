import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { freePort } from '../support/free-port';
import { waitForReady } from '../support/service-process';
import { eventually } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;

/** The shell blocks of README.md marked `<!-- readme-test: sandbox -->`, in order. */
export function sandboxBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/<!-- readme-test: sandbox -->\r?\n```(?:sh|bash)\r?\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** What a user's shell has: no node_modules/.bin of this project (npm adds it for its own scripts). */
const userPath = () => (process.env.PATH ?? '').split(delimiter).filter((p) => !p.endsWith(`node_modules${sep}.bin`)).join(delimiter);

/**
 * Issue 15: `npm start`, run from a shell as the README says, serves on the pinned Node 24 without
 * rebuilding, writes .data/sandbox.env, and the README's sandbox blocks paste into bash as written.
 */
describe('npm start and the README', () => {
  let work: string;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let out = '';
  let err = '';
  let consolePort: number;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'partner-api-readme-'));
    // the service refuses a DATA_DIR others can read (CONTRACT §8); the umask of this worker may be 022
    mkdirSync(join(work, '.data'), { mode: 0o700 });
    const port = await freePort();
    consolePort = await freePort();
    child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true, // its own process group: npm, sh and node stop together
      env: {
        PATH: userPath(), HOME: process.env.HOME ?? work, DATA_DIR: join(work, '.data'), PORT: String(port),
        CONSOLE_PORT: String(consolePort), HOST: '127.0.0.1', PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (err += String(d)));
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    await waitForReady(`http://127.0.0.1:${port}/health/ready`, 150_000);
    // the listeners answer before the first start has provisioned the sandbox and printed the banner
    await eventually(() => out.includes('sandbox.env'), 'the start banner', 60_000);
  }, 240_000);

  afterAll(async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
    rmSync(work, { recursive: true, force: true });
  });

  it('runs the service on the pinned Node 24 although the shell finds another node first', () => {
    expect(out).toContain(`(Node v${pinned})`);
  });

  it('does not build again: npm test built dist/ just before', () => {
    expect(err).toContain('dist/ is up to date');
    expect(err).not.toContain('building');
  });

  it('runs every README sandbox block in bash as written', () => {
    const blocks = sandboxBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const script = ['set -eo pipefail', ...blocks.flatMap((b, i) => [`echo "@@ block ${i + 1}"`, b])].join('\n');
    const r = spawnSync('bash', ['-c', script], {
      cwd: work, // the README's commands run in the project folder: here .data is the service's DATA_DIR
      env: { PATH: userPath(), HOME: process.env.HOME ?? work, CONSOLE_PORT: String(consolePort) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const output = r.stdout.split(/^@@ block \d+\n/m).slice(1);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(output).toHaveLength(blocks.length);
    const all = output.join('');
    expect(all).toContain('{"valid":true,"posted":false,"checked":["input","grant","references"]');
    expect(all).toMatch(/"posted":true,"voucher_number":1,"operation_id":"[0-9a-f-]{36}","replayed":false,"environment":"sandbox"/);
    expect(all).toMatch(/"replayed":true/);
    expect(all).toMatch(/"kind":"journal\.post","status":"completed"/);
    expect(all).toMatch(/"created":true,"operation_id":"[0-9a-f-]{36}","replayed":false/);
    expect(all).toMatch(/"secret":"whsec_/);
    expect(all).toMatch(/\{"data":\[\{"id":"[0-9a-f-]{36}","type":"operation\.completed","timestamp":"[^"]+","data":\{"operation_id"/);
    expect(all).toMatch(/\{"data":\[\],"next_cursor":"[A-Za-z0-9_.-]+","has_more":false\}/);
    expect(all).not.toMatch(/"type":"urn:partner-api:error:/);
  });
});

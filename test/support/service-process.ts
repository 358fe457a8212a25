import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const ROOT = join(__dirname, '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the built service (dist/) as a separate process, as `npm start` does after its build;
 * `umask` (e.g. '022') starts it under that file-creation mask, through sh.
 */
export function startService(env: Record<string, string>, options: { umask?: string } = {}): ServiceProcess {
  const main = join(ROOT, 'dist', 'src', 'main.js');
  const [command, args] = options.umask ? ['sh', ['-c', `umask ${options.umask}; exec "${process.execPath}" "${main}"`]] : [process.execPath, [main]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function waitForReady(url: string, timeoutMs: number, proc?: ServiceProcess): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (proc && proc.child.exitCode !== null) throw new Error(`service exited: ${proc.stderr()}`);
    try {
      if ((await fetch(url)).status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready within ${timeoutMs} ms: ${url}`);
}

export async function stopService(proc: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode === null) proc.child.kill(signal);
  return proc.exited;
}

/** Temporary DATA_DIRs of a spec file, removed after all its tests. */
export function tempDirsOfSpec(): (prefix: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** The environment of a service process on `dataDir` with free ports, and its partner origin. */
export async function serviceEnv(dataDir: string): Promise<{ env: Record<string, string>; origin: string; port: number }> {
  const port = await freePort();
  return {
    env: { DATA_DIR: dataDir, PORT: String(port), CONSOLE_PORT: String(await freePort()), HOST: '127.0.0.1' },
    origin: `http://127.0.0.1:${port}`,
    port,
  };
}

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { serviceEnv, startService, stopService, tempDirsOfSpec, waitForReady } from '../support/service-process';
import { eventually } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const isAlive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

/**
 * CONTRACT §2: one process per DATA_DIR — a second one stops before it opens anything, with one line
 * naming DATA_DIR and the holder's pid; a lock left by a killed process does not block. And `npm start`
 * is one process tree: stopping npm stops the service (issue 26: `kill -TERM` of a backgrounded
 * `npm start` left `node dist/src/main.js` running, holding the ports and the store).
 */
describe('one process per DATA_DIR, and npm start as one process tree', () => {
  const newDir = tempDirsOfSpec();
  const tempDir = () => newDir('partner-api-lock-');
  const envFor = serviceEnv;

  it('a second process on the same DATA_DIR stops at once with one line naming DATA_DIR and the pid; a killed holder does not block', async () => {
    const dataDir = tempDir();
    const first = await envFor(dataDir);
    const holder = startService(first.env);
    try {
      await waitForReady(`${first.origin}/health/ready`, 150_000, holder);
      const before = readdirSync(dataDir).sort();

      const second = startService((await envFor(dataDir)).env);
      expect(await second.exited).toBe(1);
      const lines = second.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`DATA_DIR ${dataDir}`);
      expect(lines[0]).toContain(`pid ${holder.child.pid}`);
      expect(second.stdout()).toBe('');
      // it opened nothing: no file came or went, and the holder still serves
      expect(readdirSync(dataDir).sort()).toEqual(before);
      expect((await fetch(`${first.origin}/health/ready`)).status).toBe(200);

      // kill -9: no chance to release the lock; the next start takes it over at once
      holder.child.kill('SIGKILL');
      await holder.exited;
      const next = await envFor(dataDir);
      const third = startService(next.env);
      try {
        await waitForReady(`${next.origin}/health/ready`, 150_000, third);
      } finally {
        expect(await stopService(third)).toBe(0);
      }
      expect(third.stderr()).not.toContain('in use');
    } finally {
      if (holder.child.exitCode === null) holder.child.kill('SIGKILL');
    }
  }, 180_000);

  it('issue 35 finding 7: two processes started together on a stale lock, 40 times: exactly one holds it every time', async () => {
    const lockModule = join(ROOT, 'dist', 'src', 'shared', 'runtime', 'data-dir-lock.js');
    // a process that takes DATA_DIR's lock when told "go" on stdin, says whether it got it, and keeps it until stdin ends
    const contender = (dataDir: string, waitForGo: boolean) => {
      const script = `
        const { lockDataDir } = require(${JSON.stringify(lockModule)});
        const take = () => lockDataDir(${JSON.stringify(dataDir)}).then(() => console.log('held'), (e) => console.log(e.constructor.name === 'DataDirLockedError' ? 'locked' : 'error ' + e.message));
        process.stdin.on('end', () => process.exit(0)).resume();
        ${waitForGo ? "console.log('ready'); process.stdin.once('data', take);" : 'take();'}`;
      const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += String(d)));
      const said = (word: RegExp) => eventually(() => word.test(out), `a contender to say ${word}`, 20_000);
      return { child, said, out: () => out.trim().split('\n').pop() };
    };
    const outcomes: string[] = [];
    for (let round = 0; round < 40; round++) {
      const dataDir = tempDir();
      // a holder killed with SIGKILL: its lock stays behind
      const holder = contender(dataDir, false);
      await holder.said(/held/);
      holder.child.kill('SIGKILL');
      await new Promise((r) => holder.child.once('exit', r));
      expect(holder.child.signalCode).toBe('SIGKILL');
      const pair = [contender(dataDir, true), contender(dataDir, true)];
      await Promise.all(pair.map((c) => c.said(/ready/)));
      for (const c of pair) c.child.stdin!.write('go\n');
      await Promise.all(pair.map((c) => c.said(/held|locked|error/)));
      outcomes.push(
        pair
          .map((c) => c.out())
          .sort()
          .join('+'),
      );
      for (const c of pair) c.child.stdin!.end();
      await Promise.all(pair.map((c) => (c.child.exitCode === null ? new Promise((r) => c.child.once('exit', r)) : null)));
    }
    const both = outcomes.filter((o) => o === 'held+held').length;
    expect({
      exactlyOne: outcomes.filter((o) => o === 'held+locked').length,
      both,
      other: outcomes.filter((o) => o !== 'held+locked' && o !== 'held+held'),
    }).toEqual({ exactlyOne: 40, both: 0, other: [] });
  }, 180_000);

  it('npm start runs `node [flags] FILE`, the form the shared yardstick reads, so the bench runs the service with its flags', () => {
    // ../shared/bench/run.mjs takes a start script's flags only from `node [flags] FILE`; with `exec node …` it
    // fell back to dist/src/main.js without the young-generation flags (peak RSS 281 MB instead of ~190 MB)
    const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
    const words = start.trim().split(/\s+/);
    expect(words[0]).toBe('node');
    expect(start).not.toMatch(/[;&|$`]/);
    expect(existsSync(join(ROOT, words[words.length - 1]))).toBe(true);
    expect(words).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--min-semi-space-size=16']));
    // the old generation grows by half its live size between full collections (issue 28: peak RSS ~270 → ~210 MB)
    expect(words).toContain('--heap-growing-percent=50');
    // and the one-process tree then comes from bash, which execs a one-command script (dash does not)
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^script-shell=\/bin\/bash$/m);
  });

  it("the image runs the start script's command: the same node flags as npm start", () => {
    const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(start.trim().split(/\s+/));
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'npm start stops with its service on %s to npm: no orphan',
    async (signal) => {
      const dataDir = tempDir();
      const { env, origin } = await envFor(dataDir);
      // a user's shell: the project's node_modules/.bin comes from npm itself
      const path = (process.env.PATH ?? '')
        .split(delimiter)
        .filter((p) => !p.endsWith(`node_modules${sep}.bin`))
        .join(delimiter);
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        env: { PATH: path, HOME: process.env.HOME ?? dataDir, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      npm.stderr!.on('data', (d) => (err += String(d)));
      npm.stdout!.resume();
      const npmExited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
      let service: number | undefined;
      try {
        await waitForReady(`${origin}/health/ready`, 120_000);
        // the process serving: the holder of DATA_DIR's lock, below npm
        service = Number(readFileSync(join(dataDir, 'service.lock', 'owner'), 'utf8').split(' ')[0]);
        const ancestors = spawnSync('ps', ['-o', 'ppid=', '-p', String(service)], { encoding: 'utf8' }).stdout.trim();
        expect([
          String(npm.pid),
          ...spawnSync('ps', ['-o', 'pid=', '--ppid', String(npm.pid)], { encoding: 'utf8' })
            .stdout.trim()
            .split(/\s+/),
        ]).toContain(ancestors);

        npm.kill(signal); // the npm process only, as `kill -TERM %1` of a backgrounded `npm start` does
        // npm itself ends too (without the fix, on SIGINT npm kept waiting on its shell)
        let npmDone = false;
        void npmExited.then(() => (npmDone = true));
        await eventually(() => npmDone, 'npm to exit', 20_000);
        await eventually(() => !isAlive(service!), 'the service stops with npm', 15_000);
        await expect(fetch(`${origin}/health/live`)).rejects.toThrow();
      } finally {
        if (service !== undefined && isAlive(service)) process.kill(service, 'SIGKILL');
        if (npm.exitCode === null) npm.kill('SIGKILL');
      }
      expect(err).not.toContain('start failed');
    },
    180_000,
  );
});

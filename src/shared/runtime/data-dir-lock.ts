import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';

/** The lock proper-lockfile keeps for DATA_DIR (a directory `service.lock.lock`, mtime refreshed every 5 s). */
const LOCKED_PATH = 'service.lock';
/** Who holds it: the holder's pid, written once it holds the lock. */
const PID_FILE = 'service.pid';
/** proper-lockfile's own staleness: a lock not refreshed for this long is taken over (covers a reused pid). */
const STALE_MS = 10_000;

export class DataDirLockedError extends Error {}

/**
 * CONTRACT §2: one process per DATA_DIR, taken before the store (or anything else in it) is opened, so
 * that two processes never run PGlite or migrations on one embedded store. proper-lockfile makes the
 * lock an atomically created directory whose mtime the holder refreshes; a lock whose holder's pid is
 * gone (a `kill -9`) is taken over at once rather than after the staleness period. Released at exit
 * (proper-lockfile's exit hook) or by the returned function.
 */
export async function lockDataDir(dataDir: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<() => Promise<void>> {
  const target = join(dataDir, LOCKED_PATH);
  const options = {
    realpath: false,
    stale: STALE_MS,
    retries: 0,
    lockfilePath: `${target}.lock`,
    // a refresh that failed (event loop blocked past the staleness, disk gone): say so, keep serving
    onCompromised: (err: Error) => log(`DATA_DIR ${dataDir}: the process lock was compromised (${err.message})`),
  };
  let release: () => Promise<void>;
  try {
    release = await lock(target, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const holder = holderPid(dataDir);
    if (holder !== null && holder !== process.pid && !alive(holder)) {
      // the holder was killed without releasing: its lock is worth nothing
      rmSync(`${target}.lock`, { recursive: true, force: true });
      try {
        release = await lock(target, options);
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code !== 'ELOCKED') throw again;
        throw lockedError(dataDir, holderPid(dataDir));
      }
    } else {
      throw lockedError(dataDir, holder);
    }
  }
  const pidFile = join(dataDir, PID_FILE);
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  // proper-lockfile removes its lock at exit; the pid file goes with it
  const forget = () => rmSync(pidFile, { force: true });
  process.once('exit', forget);
  return async () => {
    process.removeListener('exit', forget);
    forget();
    await release();
  };
}

function lockedError(dataDir: string, pid: number | null): DataDirLockedError {
  return new DataDirLockedError(
    `DATA_DIR ${dataDir} is in use by another process (pid ${pid ?? 'unknown'}): stop it first, or give this one its own DATA_DIR`,
  );
}

function holderPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, PID_FILE), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is someone else's
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

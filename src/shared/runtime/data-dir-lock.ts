import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The lock of a DATA_DIR: a directory that holds one file, `owner` ("pid start-time nonce"), and exists
 * only while a process holds the store.
 */
const LOCK = 'service.lock';
const OWNER = 'owner';
/** The lock proper-lockfile kept before (a directory whose mtime its holder refreshed every 5 s): a fresh one is a live holder of an older version. */
const LEGACY_LOCK = 'service.lock.lock';
const LEGACY_PID = 'service.pid';
const LEGACY_STALE_MS = 10_000;
/** Left-overs of takeovers and interrupted starts are removed once older than this (see `sweep`). */
const SWEEP_AFTER_MS = 60_000;

export class DataDirLockedError extends Error {}

interface Owner {
  pid: number;
  /** the holder's start time (`/proc/<pid>/stat` field 22), so that a reused pid is not mistaken for it; null where unknown */
  start: string | null;
  nonce: string;
}

/** Nonces of the locks this process holds: its own lock is never taken for a stale one. */
const mine = new Set<string>();

/**
 * CONTRACT §2: one process per DATA_DIR, taken before the store (or anything else in it) is opened, so
 * that two processes never run PGlite or migrations on one embedded store. Every step that decides who
 * holds the lock is one atomic rename (issue 35 finding 7: with proper-lockfile, two processes that
 * found a killed holder's lock each removed it and locked — 5 of 40 simultaneous starts both held it —
 * because the pid was written after the lock was taken):
 *
 * - **Take**: a private directory with the `owner` file already in it is renamed to `service.lock`. A
 *   rename onto a directory that is not empty fails, so exactly one process gets it, and the pid is
 *   there from the instant the lock exists.
 * - **Take over** a lock whose holder is gone (its pid dead, or alive with another start time: a reused
 *   pid, as pid 1 in a restarted container): it is renamed to `service.lock.stale-<its nonce>`. Only one
 *   rename to that name can succeed while the first one's directory is there, so of the processes that
 *   judged the same lock stale one moves it, and no process can move a newer lock under that name; then
 *   each tries to take as above. Those directories are swept after a minute, far longer than any process
 *   takes between reading a lock and renaming it.
 * - **Release** (at exit, or by the returned function): renamed away, then removed.
 *
 * A killed holder's lock never blocks: its owner's pid (and start time) is checked. A lock directory
 * without an owner file is never one of ours (ours are renamed into place with it): it is left alone.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lock = join(dataDir, LOCK);
  legacyCheck(dataDir);
  sweep(dataDir);
  const me: Owner = { pid: process.pid, start: startTime(process.pid), nonce: randomBytes(12).toString('hex') };
  const prepared = join(dataDir, `${LOCK}.new-${me.nonce}`);
  mkdirSync(prepared, { mode: 0o700 });
  writeFileSync(join(prepared, OWNER), `${me.pid} ${me.start ?? '-'} ${me.nonce}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (renamed(prepared, lock)) {
        mine.add(me.nonce);
        const release = () => releaseSync(lock, me.nonce);
        process.once('exit', release);
        return async () => {
          process.removeListener('exit', release);
          release();
        };
      }
      const owner = readOwner(lock);
      if (owner === 'absent') continue; // released or moved away meanwhile: take it
      if (owner === 'broken') {
        // between our read and our look another lock may have replaced the one we read: look again. A
        // lock is never without its owner file (it is renamed into place with it), so one that stays so
        // was made by hand, and is not ours to move
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      if (mine.has(owner.nonce)) throw lockedError(dataDir, process.pid);
      if (alive(owner)) throw lockedError(dataDir, owner.pid);
      // stale: move it away under a name that belongs to that lock alone
      renamed(lock, join(dataDir, `${LOCK}.stale-${owner.nonce}`));
    }
    if (readOwner(lock) === 'broken') {
      throw new DataDirLockedError(`DATA_DIR ${dataDir} has a lock (${LOCK}) without an owner: remove it if no process uses DATA_DIR`);
    }
    throw lockedError(dataDir, null);
  } finally {
    rmSync(prepared, { recursive: true, force: true });
  }
}

/** rename(2), false when the target is a directory that is not empty (taken) or the source is gone. */
function renamed(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw err;
  }
}

function readOwner(lock: string): Owner | 'absent' | 'broken' {
  let text: string;
  try {
    text = readFileSync(join(lock, OWNER), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    try {
      lstatSync(lock);
      return 'broken';
    } catch {
      return 'absent';
    }
  }
  const [pid, start, nonce] = text.trim().split(' ');
  const n = Number(pid);
  if (!Number.isSafeInteger(n) || n <= 0 || !nonce) return 'broken';
  return { pid: n, start: start === '-' ? null : start, nonce };
}

function releaseSync(lock: string, nonce: string): void {
  mine.delete(nonce);
  const owner = readOwner(lock);
  if (owner === 'absent' || owner === 'broken' || owner.nonce !== nonce) return;
  const away = `${lock}.released-${nonce}`;
  if (renamed(lock, away)) rmSync(away, { recursive: true, force: true });
}

/** Removes what takeovers, releases and interrupted starts left behind, once old enough that no process can still be acting on it. */
function sweep(dataDir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dataDir)) {
    if (!/^service\.lock\.(stale|released|new)-/.test(name)) continue;
    const path = join(dataDir, name);
    try {
      if (now - statSync(path).mtimeMs > SWEEP_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** A previous version's lock that its holder still refreshes: that process is alive. */
function legacyCheck(dataDir: string): void {
  try {
    if (Date.now() - statSync(join(dataDir, LEGACY_LOCK)).mtimeMs >= LEGACY_STALE_MS) return;
  } catch {
    return;
  }
  let pid: number | null = null;
  try {
    pid = Number(readFileSync(join(dataDir, LEGACY_PID), 'utf8').trim()) || null;
  } catch {
    // no pid written
  }
  if (pid === null || alive({ pid, start: null, nonce: '' })) throw lockedError(dataDir, pid);
}

function lockedError(dataDir: string, pid: number | null): DataDirLockedError {
  return new DataDirLockedError(`DATA_DIR ${dataDir} is in use by another process (pid ${pid ?? 'unknown'}): stop it first, or give this one its own DATA_DIR`);
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null off Linux or when the process is gone. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count from after it
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: Owner): boolean {
  if (owner.pid === process.pid) return false; // a previous process with our pid (pid 1 in a restarted container)
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it exists, it is someone else's
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.start === null) return true;
  const now = startTime(owner.pid);
  // /proc unreadable for it: trust the pid
  return now === null || now === owner.start;
}

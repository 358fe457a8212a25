import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('the DATA_DIR lock (CONTRACT §2, issue 35 finding 7)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lock-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is a directory renamed into place with its owner already in it, and gone once released', async () => {
    const release = await lockDataDir(dir);
    expect(readFileSync(join(dir, 'service.lock', 'owner'), 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+ [0-9a-f]{24}\\n$`));
    await expect(lockDataDir(dir)).rejects.toThrow(
      new DataDirLockedError(`DATA_DIR ${dir} is in use by another process (pid ${process.pid}): stop it first, or give this one its own DATA_DIR`),
    );
    await release();
    expect(existsSync(join(dir, 'service.lock'))).toBe(false);
    await (
      await lockDataDir(dir)
    )();
  });

  it('takes over a lock whose pid lives but started at another time (a reused pid), and one whose pid is gone', async () => {
    mkdirSync(join(dir, 'service.lock'));
    // pid 1 is alive, but did not start at tick 1
    writeFileSync(join(dir, 'service.lock', 'owner'), '1 1 0123456789abcdef01234567\n');
    const release = await lockDataDir(dir);
    expect(readFileSync(join(dir, 'service.lock', 'owner'), 'utf8')).toContain(`${process.pid} `);
    await release();
    mkdirSync(join(dir, 'service.lock'));
    writeFileSync(join(dir, 'service.lock', 'owner'), '2147483646 - 0123456789abcdef01234568\n');
    await (
      await lockDataDir(dir)
    )();
  });

  it('leaves a lock without an owner (made by hand) alone and says so; an empty directory is no lock', async () => {
    mkdirSync(join(dir, 'service.lock'));
    await (
      await lockDataDir(dir)
    )();
    mkdirSync(join(dir, 'service.lock'));
    writeFileSync(join(dir, 'service.lock', 'notes'), 'mine\n');
    await expect(lockDataDir(dir)).rejects.toThrow(`DATA_DIR ${dir} has a lock (service.lock) without an owner: remove it if no process uses DATA_DIR`);
    expect(existsSync(join(dir, 'service.lock'))).toBe(true);
  });
});

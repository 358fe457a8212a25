import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecretsKeyEntry } from '../crypto/secret-box';

/** A DATA_DIR that other users can read or write: the start stops with this one-line message. */
export class DataDirError extends Error {}

/** Group and other read/write bits: any of them set means someone else can read or write. */
const SHARED_BITS = 0o066;

/**
 * CONTRACT §8: DATA_DIR and everything the service writes in it are readable by the service's own user
 * only. Files created from now on get mode 0600 / directories 0700 (umask 077, set before PGlite opens
 * its files); an existing DATA_DIR that others can read or write stops the start; modes of existing
 * files inside (e.g. PGlite's, written by an older version under umask 022) are tightened.
 */
export function secureDataDir(dir: string): void {
  process.umask(0o077);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    return;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new DataDirError(`DATA_DIR ${dir} is not a directory`);
  const mode = st.mode & 0o777;
  if ((mode & SHARED_BITS) !== 0) {
    throw new DataDirError(
      `DATA_DIR ${dir} can be read or written by other users (mode ${mode.toString(8).padStart(4, '0')}); run chmod 700 ${dir} and start again`,
    );
  }
  tightenModes(dir);
}

/** chmod 0700 on directories and 0600 on files below `dir` (symbolic links are left alone). */
export function tightenModes(dir: string): void {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if ((lstatSync(path).mode & 0o777) !== 0o700) chmodSync(path, 0o700);
        stack.push(path);
      } else if (entry.isFile() && (lstatSync(path).mode & 0o777 & ~0o600) !== 0) {
        chmodSync(path, 0o600);
      }
    }
  }
}

/** A file in DATA_DIR holding one generated value, created with mode 0600 on first use. */
function readOrCreate(dir: string, name: string, generate: () => string): { value: string; generated: boolean } {
  const file = join(dir, name);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { value, generated: true };
}

/** SECRETS_KEY, or the one generated into DATA_DIR/secrets-key on first start (CONTRACT §2). */
export function secretsKeySpec(configured: string | null, dataDir: string): string {
  return configured ?? readOrCreate(dataDir, 'secrets-key', () => generateSecretsKeyEntry(1)).value;
}

/** CONSOLE_API_KEY, or one generated into DATA_DIR/console-api-key on first start (CONTRACT §2). */
export function consoleApiKeyOf(configured: string | null, dataDir: string): { key: string; generated: boolean } {
  if (configured) return { key: configured, generated: false };
  const r = readOrCreate(dataDir, 'console-api-key', () => `ck_${randomBytes(24).toString('base64url')}`);
  return { key: r.value, generated: r.generated };
}

#!/usr/bin/env node
// Builds dist/ with tsc only when it is missing or older than the sources (issue 15: no rebuild on every
// command). "Older" compares the newest source file against the newest file tsc wrote; an incremental
// build rewrites the outputs of every changed source, so a build that changed anything moves that mark.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

export function staleReason() {
  if (!existsSync(join(root, 'dist', 'src', 'main.js'))) return 'dist/ is missing';
  const built = newest(join(root, 'dist'));
  const inputs = ['src', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'].map((p) => newest(join(root, p)));
  return Math.max(...inputs) > built ? 'sources changed since the last build' : null;
}

const reason = staleReason();
if (reason === null) {
  if (!quiet) process.stderr.write('dist/ is up to date\n');
} else {
  process.stderr.write(`building (${reason}) …\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

#!/usr/bin/env node
// Builds dist/ with tsc only when it is missing or older than the sources (issue 15: no rebuild on every
// command); `--always` builds anyway (npm run build). A successful build writes dist/.build-stamp, whose
// time is what "older" compares the newest source file against.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return path.endsWith('.spec.ts') ? 0 : st.mtimeMs; // specs are not built
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

function staleReason() {
  if (process.argv.includes('--always')) return 'npm run build';
  if (!existsSync(join(root, 'dist', 'src', 'main.js')) || !existsSync(stamp)) return 'dist/ is missing';
  const inputs = Math.max(...INPUTS.map((p) => newest(join(root, p))));
  return inputs > statSync(stamp).mtimeMs ? 'sources changed since the last build' : null;
}

const reason = staleReason();
if (reason === null) {
  process.stderr.write('dist/ is up to date\n');
} else {
  process.stderr.write(`building (${reason}) …\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

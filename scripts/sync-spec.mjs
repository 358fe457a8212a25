#!/usr/bin/env node
// docs/contract.md and docs/seed.md are verbatim copies of the shared spec (../shared/spec/CONTRACT.md and
// partner-api-seed.md) so that a clone carries its spec. `--check` exits 1 when they differ; without it,
// the copies are refreshed. Where ../shared does not exist (a clone on its own), there is nothing to do.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.SHARED_SPEC_DIR || join(root, '..', 'shared', 'spec'); // SHARED_SPEC_DIR: e.g. from a worktree
const PAIRS = [
  ['CONTRACT.md', 'docs/contract.md'],
  ['partner-api-seed.md', 'docs/seed.md'],
];
const check = process.argv.includes('--check');

if (!existsSync(shared)) {
  process.stderr.write(`no ${shared}: the docs/ copies stand on their own\n`);
  process.exit(0);
}
let differ = 0;
for (const [from, to] of PAIRS) {
  const source = readFileSync(join(shared, from), 'utf8');
  const copy = existsSync(join(root, to)) ? readFileSync(join(root, to), 'utf8') : null;
  if (copy === source) continue;
  if (check) {
    differ++;
    process.stderr.write(`${to} differs from ../shared/spec/${from}: run npm run docs:sync and commit\n`);
  } else {
    writeFileSync(join(root, to), source);
    process.stderr.write(`updated ${to} from ../shared/spec/${from}\n`);
  }
}
if (check && differ === 0) process.stderr.write('docs/contract.md and docs/seed.md match ../shared/spec\n');
process.exit(differ > 0 ? 1 : 0);

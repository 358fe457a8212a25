#!/usr/bin/env node
/**
 * `npm run test:related [-- BASE] [--list]`: the tests a change affects, in seconds to minutes instead of the full run.
 * The change is every file that differs from BASE (default `main`; committed, staged, unstaged and untracked).
 * - unit specs: jest's `--findRelatedTests` (each spec's import graph reaches a changed file);
 * - e2e specs: jest's import graph cannot choose them (every one imports the whole app through
 *   test/support/test-app.ts), so a spec is chosen when it changed itself, or when a module changed
 *   (src/modules/<m>/, src/modules/auth/<m>/) and the spec's file name contains <m> or the first segment
 *   of one of <m>'s partner routes (`${base}/operations`), or the spec imports from <m>.
 *   A change to src/shared, src/*.ts, the migrations or test/support chooses every e2e spec.
 * The full suite (`npm test`, .ci/run) stays the gate before merging. Prints what it chose and why;
 * `--list` only prints. The e2e specs run only when the unit specs pass.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const listOnly = args.includes('--list');
const base = args.find((a) => !a.startsWith('--')) ?? 'main';
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const mergeBase = git('merge-base', base, 'HEAD')[0];
const changed = [...new Set([...git('diff', '--name-only', mergeBase), ...git('ls-files', '--others', '--exclude-standard')])].filter(
  (f) => existsSync(join(root, f)) && /\.(ts|js|mjs|json)$/.test(f),
);
if (changed.length === 0) {
  console.log(`test:related: nothing differs from ${base}`);
  process.exit(0);
}

const e2eDir = join(root, 'test', 'e2e');
const e2eSpecs = readdirSync(e2eDir).filter((f) => f.endsWith('.e2e-spec.ts'));
/** The module a changed file belongs to, `null` when it is not in one, or `*` when every e2e spec depends on it. */
function moduleOf(file) {
  if (file.endsWith('.spec.ts')) return null; // a unit spec: only the unit run reads it
  const m = /^src\/modules\/(?:auth\/([a-z-]+)\/|([a-z-]+)\/)/.exec(file);
  if (m) return m[1] ?? m[2];
  if (/^src\//.test(file) || /^test\/support\//.test(file)) return '*';
  return null;
}
/** The first path segments of a module's partner routes (`${base}/operations` → operations): e2e specs are often named after them. */
function routeWordsOf(module) {
  const dirs = [join(root, 'src', 'modules', module), join(root, 'src', 'modules', 'auth', module)].filter((d) => existsSync(d));
  const words = new Set();
  for (const dir of dirs) {
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.controller.ts'))) {
      for (const [, word] of readFileSync(join(dir, f), 'utf8').matchAll(/\$\{base\}\/([a-z][a-z-]*)/g)) words.add(word);
    }
  }
  return [...words];
}
const chosen = new Map();
for (const file of changed) {
  if (file.startsWith('test/e2e/') && file.endsWith('.e2e-spec.ts')) chosen.set(file, 'changed');
  const module = moduleOf(file);
  if (module === null) continue;
  for (const spec of e2eSpecs) {
    const path = `test/e2e/${spec}`;
    if (chosen.has(path)) continue;
    if (module === '*') chosen.set(path, `${file} (shared)`);
    else if (spec.includes(module) || new RegExp(`src/modules/(?:auth/)?${module}[/']`).test(readFileSync(join(e2eDir, spec), 'utf8'))) {
      chosen.set(path, `module ${module}`);
    } else {
      const word = routeWordsOf(module).find((w) => spec.includes(w));
      if (word) chosen.set(path, `module ${module}, route ${word}`);
    }
  }
}

const jest = (args) =>
  spawnSync(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;

console.log(`test:related: ${changed.length} file(s) differ from ${base}`);
const sources = changed.filter((f) => /^(src|test)\//.test(f));
if (listOnly) {
  const units =
    sources.length > 0
      ? execFileSync(process.execPath, ['node_modules/jest/bin/jest.js', '--selectProjects', 'unit', '--listTests', '--findRelatedTests', ...sources], {
          cwd: root,
          encoding: 'utf8',
        })
      : '';
  console.log(
    `unit specs:\n${units
      .split('\n')
      .filter((l) => l.endsWith('.spec.ts'))
      .map((l) => `  ${l.slice(root.length + 1)}`)
      .join('\n')}`,
  );
  console.log(`e2e specs:\n${[...chosen].map(([spec, why]) => `  ${spec}  ← ${why}`).join('\n')}`);
  process.exit(0);
}
let status = sources.length > 0 ? jest(['--selectProjects', 'unit', '--maxWorkers=2', '--passWithNoTests', '--findRelatedTests', ...sources]) : 0;
if (chosen.size > 0) {
  console.log(`test:related: ${chosen.size} e2e spec(s):`);
  for (const [spec, why] of chosen) console.log(`  ${spec}  ← ${why}`);
  status ||= jest(['--selectProjects', 'e2e', '--maxWorkers=2', '--', ...chosen.keys()]);
} else {
  console.log('test:related: no e2e spec is named after or imports a changed module');
}
process.exit(status);

#!/usr/bin/env node
/**
 * `npm run checks`: the steps `npm test` runs before jest — the type-check and the build (one TypeScript
 * program: scripts/typecheck-and-build.mjs, the same errors as `npm run typecheck` and the same dist/ as
 * `npm run build`), the promise lint (eslint.config.mjs), the formatting (prettier --check; `npm run format`
 * rewrites), the dependency and OpenAPI lints, the client check, docs/architecture.md's owner table — side by
 * side, as many at once as the machine has cores (each is one process; on 2 cores that takes about half the
 * time of one after the other). Each step's output is
 * printed when it ends, with its duration; the exit status is 1 when any step failed.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
// the longest first, so that the two lanes of a 2-core machine end together
const STEPS = ['lint', 'typecheck+build', 'client:check', 'lint:deps', 'lint:openapi', 'format:check', 'check:owner-table'];
// the steps that are not npm scripts
const COMMANDS = { 'typecheck+build': [process.execPath, [join(root, 'scripts', 'typecheck-and-build.mjs')]] };

function run(step) {
  const started = Date.now();
  return new Promise((resolve) => {
    const [command, args] = COMMANDS[step] ?? ['npm', ['run', '--silent', step]];
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(`checks: ${step} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n`);
      if (code !== 0 && output.trim()) process.stderr.write(`${output.trimEnd()}\n`);
      resolve(code === 0);
    });
  });
}

const started = Date.now();
const queue = [...STEPS];
const results = [];
const lanes = Array.from({ length: Math.max(1, Math.min(availableParallelism(), STEPS.length)) }, async () => {
  while (queue.length > 0) results.push(await run(queue.shift()));
});
await Promise.all(lanes);
const failed = results.filter((ok) => !ok).length;
process.stderr.write(`checks: ${STEPS.length - failed}/${STEPS.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failed > 0 ? 1 : 0);

#!/usr/bin/env node
/**
 * The generator's own check (npm run check:new-operation; .ci/run with --full): runs
 * `npm run new:operation` on a copy of this tree in a temporary directory (the files git tracks or
 * would track, as they are now; node_modules linked) and checks that the result typechecks and passes
 * lint:deps at once, that the module's own files are as prettier writes them, that it edits at most two existing files outside its module's folder (the composition
 * root's lists: src/app.module.ts and migrations/index.ts; everything else the module tells the service is
 * in its own facts.ts) and adds none there but its migration and e2e spec, that a second run of the wiring
 * changes nothing, and that a step whose anchor is gone says which file to adapt. With --full also what CI wants of a real operation: the build and the
 * regenerated OpenAPI document and client types (the generator's `npm run openapi`), lint:openapi,
 * client:check, and the generated e2e spec. The copy is removed afterwards; nothing is left in the tree.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesFor } from './new-operation/names.mjs';
import { files, migrationClass } from './new-operation/templates.mjs';
import { wire, wiringSteps, WiringError } from './new-operation/wiring.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const full = process.argv.includes('--full');
const ARGS = ['gadgets', 'gadget', 'gadgets:create', 'code:text', 'name:text', 'note:text?', 'price_minor:amount', 'deposit_minor:amount?'];
const TIMESTAMP = '1766520000000';
/** At most this many existing files outside the new module's folder may change (issue 48: app.module.ts and the migrations index). */
const MAX_EDITED_OUTSIDE = 2;
/** Written by `npm run openapi` (with --full) from the routes: derived, not edited. */
const DERIVED = ['openapi/partner.json', 'openapi/console.json', 'clients/typescript/src/partner-api.d.ts'];
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

function run(cwd, cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(r.stdout, r.stderr);
    throw new Error(`${cmd} ${args.join(' ')} failed in the generated tree (exit ${r.status})`);
  }
  console.log(`  ok: ${cmd} ${args.join(' ')} (${seconds()})`);
  return r.stdout;
}

const copy = mkdtempSync(join(tmpdir(), 'new-operation-check-'));
// an interrupted check removes its copy too
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    rmSync(copy, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  // the tree as it is now, not as committed: tracked and untracked-but-not-ignored files that exist
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  const hash = (path) => createHash('sha1').update(readFileSync(path)).digest('hex');
  const before = new Map();
  for (const file of new Set(listed.split('\0').filter(Boolean))) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
    before.set(file, hash(join(copy, file)));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  console.log(`new:operation check in ${copy}`);

  const generator = ['scripts/new-operation.mjs', ...ARGS, '--words-da', 'Oprette dimser|tilføje dimser til din liste', '--timestamp', TIMESTAMP];
  run(copy, 'node', full ? generator : [...generator, '--no-openapi']);

  // outside its own folder a new operation edits at most the composition root's two lists, and adds only its migration and e2e spec
  const own = `src/modules/${ARGS[0]}/`;
  const edited = [...before]
    .filter(([file, h]) => !file.startsWith(own) && !DERIVED.includes(file) && (!existsSync(join(copy, file)) || hash(join(copy, file)) !== h))
    .map(([file]) => file);
  assert.ok(
    edited.length <= MAX_EDITED_OUTSIDE,
    `the generated operation edits ${edited.length} existing files outside ${own} (at most ${MAX_EDITED_OUTSIDE}: src/app.module.ts and ` +
      `the migrations index): ${edited.join(', ')}. Declare the module's facts in its own facts.ts (src/shared/module-facts.ts), not in a list elsewhere`,
  );
  const filesUnder = (dir) =>
    readdirSync(join(copy, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(copy, join(e.parentPath, e.name)));
  const added = ['src', 'test'].flatMap(filesUnder).filter((f) => !before.has(f) && !f.startsWith(own));
  assert.deepEqual(
    added.sort(),
    [`src/shared/database/migrations/${TIMESTAMP}-${ARGS[0]}.ts`, `test/e2e/${ARGS[0]}.e2e-spec.ts`],
    'the generated operation adds files outside its module',
  );
  console.log(`  ok: outside ${own} it edits ${edited.length} existing files (${edited.join(', ')}) and adds its migration and e2e spec (${seconds()})`);

  // a second run of the wiring is a no-op, and a second generation is refused before it writes anything
  const n = namesFor(ARGS[0], ARGS[1], ARGS[2], ARGS.slice(3));
  n.words = { en: { title: 'Create gadgets', text: 'add gadgets' }, da: { title: 'Oprette dimser', text: 'tilføje dimser til din liste' } };
  const steps = wiringSteps(n, { className: migrationClass(n, TIMESTAMP), file: `${TIMESTAMP}-gadgets` });
  assert.deepEqual(
    wire(copy, steps)
      .filter((s) => s.changed)
      .map((s) => s.file),
    [],
    'a second wiring run changed files',
  );
  const again = spawnSync('node', generator, { cwd: copy, encoding: 'utf8' });
  assert.equal(again.status, 2);
  assert.match(again.stderr, /exists already/);
  // a step whose anchor is gone names its file and the place to adapt it
  const appModule = steps.find((s) => s.file === 'src/app.module.ts');
  assert.throws(
    () => appModule.edit('export class PartnerAppModule {}\n', appModule.file),
    (e) => e instanceof WiringError && /src\/app\.module\.ts: .*wiring\.mjs/.test(e.message),
  );
  console.log(`  ok: the wiring is idempotent, a repeat is refused, a missing anchor names its file (${seconds()})`);

  // the module lands on the partner listener (PartnerAppModule's list), not on the console listener's
  const appModuleText = readFileSync(join(copy, 'src/app.module.ts'), 'utf8');
  const listOf = (name) => /imports: \[([^\]]*)\]/.exec(appModuleText.slice(appModuleText.indexOf(`module: ${name},`)))?.[1] ?? '';
  assert.match(listOf('PartnerAppModule'), /\bGadgetsModule\b/, "GadgetsModule is not in the partner listener's imports (src/app.module.ts)");
  assert.doesNotMatch(listOf('ConsoleAppModule'), /\bGadgetsModule\b/, "GadgetsModule was added to the console listener's imports");
  console.log(`  ok: the module is imported by the partner listener, not the console's (${seconds()})`);

  // the owner table of docs/architecture.md is written by hand: the check names the new module's missing row
  const ownerTable = spawnSync('node', ['scripts/check-owner-table.mjs'], { cwd: copy, encoding: 'utf8' });
  assert.equal(ownerTable.status, 1, 'the owner-table check passed without a row for the new module');
  assert.match(ownerTable.stderr, /lists for gadgets no row; its facts\.ts declares gadgets/);
  console.log(`  ok: the owner-table check asks for the new module's row of docs/architecture.md (${seconds()})`);

  run(copy, 'npm', ['run', '--silent', 'typecheck']);
  run(copy, 'npm', ['run', '--silent', 'lint:deps']);
  run(copy, 'node_modules/.bin/prettier', ['--check', ...Object.keys(files(n, TIMESTAMP))]);
  if (full) {
    const partner = JSON.parse(readFileSync(join(copy, 'openapi/partner.json'), 'utf8'));
    assert.equal(partner.paths['/gadgets']?.post?.operationId, 'createGadget', 'the regenerated partner document lacks POST /gadgets');
    run(copy, 'npm', ['run', '--silent', 'lint:openapi']);
    run(copy, 'npm', ['run', '--silent', 'client:check']);
    run(copy, 'node', [
      '--experimental-vm-modules',
      'node_modules/jest/bin/jest.js',
      '--selectProjects',
      'e2e',
      '--maxWorkers=1',
      '--',
      'test/e2e/gadgets.e2e-spec.ts',
    ]);
  }
  console.log(`new:operation check passed in ${seconds()}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}

/**
 * Everything a new write operation needs OUTSIDE its own module, as small named steps: each says which
 * file it edits and what it adds, does nothing when its addition is already there (a second run is a
 * no-op), and fails with a WiringError naming the file and the anchor it looked for when that anchor is
 * gone (the file was reshaped: adapt the step here, nowhere else).
 *
 * Two lists remain, the composition root's: the partner listener's modules (src/app.module.ts) and the
 * migrations (migrations/index.ts). Everything else a module tells the service (its scope and words, receipt
 * kind, OpenAPI tag, purge part, tables) is in its own facts.ts (src/shared/module-facts.ts), written by the
 * templates; scripts/check-new-operation.mjs fails when a generated operation edits a third existing file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class WiringError extends Error {}

/** One edit of one file: `edit(text)` returns the new text, or the same text when already done. */
function step(name, file, what, edit) {
  return { name, file, what, edit };
}

/** The index just before the anchor, or a WiringError naming the step's file. */
function at(text, anchor, file, from = 0) {
  const i =
    typeof anchor === 'string'
      ? text.indexOf(anchor, from)
      : (() => {
          const re = new RegExp(anchor.source, anchor.flags.includes('g') ? anchor.flags : `${anchor.flags}g`);
          re.lastIndex = from;
          const m = re.exec(text);
          return m ? m.index : -1;
        })();
  if (i < 0) throw new WiringError(`${file}: the anchor ${anchor} is not there any more; adapt this step in scripts/new-operation/wiring.mjs`);
  return i;
}

/** Inserts `line` after the last line matching `lastOf` (e.g. the last module import). */
function afterLast(text, lastOf, line, file) {
  const matches = [...text.matchAll(new RegExp(lastOf.source, 'gm'))];
  if (matches.length === 0) throw new WiringError(`${file}: no line matches ${lastOf}; adapt this step in scripts/new-operation/wiring.mjs`);
  const last = matches.at(-1);
  const end = text.indexOf('\n', last.index) + 1;
  return text.slice(0, end) + line + '\n' + text.slice(end);
}

/** The end (index of the closing bracket) of the list or object literal opened by `opener`. */
function closingOf(text, opener, file, from = 0) {
  // the bracket is the opener's last one: 'imports: [' opens at its '['
  const bracket = Math.max(opener.lastIndexOf('['), opener.lastIndexOf('{'), opener.lastIndexOf('('));
  const start = at(text, opener, file, from) + bracket + 1;
  const open = text[start - 1];
  const close = { '[': ']', '{': '}', '(': ')' }[open];
  if (!close) throw new WiringError(`${file}: ${opener} does not end in a bracket`);
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i;
  }
  throw new WiringError(`${file}: ${opener} is never closed`);
}

/** Adds `item` as the last element of the one-line or multi-line list opened by `opener`. */
function appendToList(text, opener, item, file, from = 0) {
  const end = closingOf(text, opener, file, from);
  const before = text.slice(0, end);
  if (/\n\s*$/.test(before)) {
    // multi-line: a line of its own, indented as the closing bracket's line plus two
    const indent = before.slice(before.lastIndexOf('\n') + 1);
    const trimmed = before.replace(/,?\s*$/, ',');
    return `${trimmed}\n${indent}  ${item},\n${indent}${text.slice(end)}`;
  }
  return `${before.replace(/,?\s*$/, '')}, ${item}${text.slice(end)}`;
}

const has = (text, s) => text.includes(s);

/** The steps for the names of names.mjs and the migration's class. */
export function wiringSteps(n, migration) {
  const moduleImport = `import { ${n.Module}Module } from './modules/${n.module}';`;
  const migrationImport = `import { ${migration.className} } from './${migration.file}';`;
  return [
    step('app module', 'src/app.module.ts', `imports ${n.Module}Module on the partner listener`, (t, f) => {
      if (has(t, moduleImport)) return t;
      t = afterLast(t, /^import .* from '\.\/modules\/[^']+';$/, moduleImport, f);
      // the partner listener's module list (PartnerAppModule.forRoot): the first `imports: [` after its
      // `module:` line, however the list is laid out (the console listener's list comes later in the file)
      return appendToList(t, 'imports: [', `${n.Module}Module`, f, at(t, 'module: PartnerAppModule,', f));
    }),
    step('migration list', 'src/shared/database/migrations/index.ts', `runs ${migration.className}`, (t, f) => {
      if (has(t, migrationImport)) return t;
      t = afterLast(t, /^import \{ \w+ \} from '\.\/\d+-[^']+';$/, migrationImport, f);
      return appendToList(t, 'export const MIGRATIONS = [', migration.className, f);
    }),
  ];
}

/**
 * Runs the steps on the tree at `root`: every edit is computed first, so a missing anchor fails before
 * any file is written. Returns each step with `changed` (false: its addition was already there).
 */
export function wire(root, steps) {
  const texts = new Map();
  const done = steps.map((s) => {
    const path = join(root, s.file);
    const before = texts.get(path) ?? readFileSync(path, 'utf8');
    const after = s.edit(before, s.file);
    texts.set(path, after);
    return { ...s, changed: after !== before };
  });
  for (const [path, text] of texts) if (text !== readFileSync(path, 'utf8')) writeFileSync(path, text);
  return done;
}

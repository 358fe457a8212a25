/**
 * Everything a new write operation needs OUTSIDE its own module, as small named steps: each says which
 * file it edits and what it adds, does nothing when its addition is already there (a second run is a
 * no-op), and fails with a WiringError naming the file and the anchor it looked for when that anchor is
 * gone (the file was reshaped: adapt the step here, nowhere else).
 *
 * Each step is a hand-kept list the project still has (docs/architecture.md, "Registries"); a step
 * disappears when its list becomes derived.
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
  const i = typeof anchor === 'string' ? text.indexOf(anchor, from) : (() => {
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
function closingOf(text, opener, file) {
  // the bracket is the opener's last one: 'imports: [core,' opens at its '['
  const bracket = Math.max(opener.lastIndexOf('['), opener.lastIndexOf('{'), opener.lastIndexOf('('));
  const start = at(text, opener, file) + bracket + 1;
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
function appendToList(text, opener, item, file) {
  const end = closingOf(text, opener, file);
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
  const purgeImport = `import { ${n.Module}Purge } from '../../${n.module}/sql';`;
  const migrationImport = `import { ${migration.className} } from './${migration.file}';`;
  return [
    step('app module', 'src/app.module.ts', `imports ${n.Module}Module on the partner listener`, (t, f) => {
      if (has(t, moduleImport)) return t;
      t = afterLast(t, /^import .* from '\.\/modules\/[^']+';$/, moduleImport, f);
      // the partner listener's module list (PartnerAppModule.forRoot)
      return appendToList(t, 'imports: [core,', `${n.Module}Module`, f);
    }),
    step('migration list', 'src/shared/database/migrations/index.ts', `runs ${migration.className}`, (t, f) => {
      if (has(t, migrationImport)) return t;
      t = afterLast(t, /^import \{ \w+ \} from '\.\/\d+-[^']+';$/, migrationImport, f);
      return appendToList(t, 'export const MIGRATIONS = [', migration.className, f);
    }),
    step('table owner', 'scripts/table-ownership.mjs', `${n.table} is owned by ${n.module}`, (t, f) => {
      const owner = new RegExp(`^\\s*${n.table}: '([^']+)'`, 'm').exec(t);
      if (owner && owner[1] !== n.module) throw new WiringError(`${f}: the table ${n.table} is owned by ${owner[1]} already; choose another module name`);
      if (owner) return t;
      return appendToList(t, 'export const TABLE_OWNERS = {', `${n.table}: '${n.module}'`, f);
    }),
    step('organization purge', 'src/modules/developers/infrastructure/developer-purge.ts', `deletes a purged organization's ${n.table}`, (t, f) => {
      if (has(t, purgeImport)) return t;
      t = afterLast(t, /^import \{ \w+Purge(, \w+)? \} from '\.\.\/\.\.\/[^']+\/sql';$/, purgeImport, f);
      // dependants first: the new rows refer to organizations, so they go before OrganizationsPurge
      const i = at(t, '  OrganizationsPurge,\n', f, at(t, 'const PURGE_ORDER', f));
      return `${t.slice(0, i)}  ${n.Module}Purge,\n${t.slice(i)}`;
    }),
    step('receipt kind', 'src/modules/receipts/domain/operation-receipt.ts', `the receipt kind '${n.receiptKind}' and resource type '${n.resourceType}'`, (t, f) => {
      if (has(t, `'${n.receiptKind}'`)) return t;
      t = appendToList(t, 'export const RECEIPT_KINDS = [', `'${n.receiptKind}'`, f);
      return has(t, `'${n.resourceType}'`) ? t : appendToList(t, 'export const RESOURCE_TYPES = [', `'${n.resourceType}'`, f);
    }),
    step('scope', 'src/shared/domain/scopes.ts', `the scope ${n.scope} with its consent words (da, en) and OpenAPI words`, (t, f) => {
      if (has(t, `'${n.scope}': {`)) return t;
      const q = (v) => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
      const words = (lang) => `{ title: ${q(n.words[lang].title)}, text: ${q(n.words[lang].text)} }`;
      const entry = `'${n.scope}': {\n    consent: {\n      en: ${words('en')},\n      da: ${words('da')},\n    },\n    openapi: ${q(n.words.en.title)},\n  }`;
      return appendToList(t, 'export const SCOPE_REGISTRY = {', entry, f);
    }),
    step('partner document tag', 'src/shared/http/openapi/partner-document.ts', `the tag ${n.module} (the operation itself is declared on its route)`, (t, f) => {
      if (has(t, `.addTag('${n.module}',`)) return t;
      const tags = [...t.matchAll(/^ {4}\.addTag\(.*\n/gm)];
      if (tags.length === 0) throw new WiringError(`${f}: no .addTag( line; adapt this step in scripts/new-operation/wiring.mjs`);
      const end = tags.at(-1).index + tags.at(-1)[0].length;
      return `${t.slice(0, end)}    .addTag('${n.module}', '${n.Module.replace(/([a-z])([A-Z])/g, '$1 $2')}')\n${t.slice(end)}`;
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

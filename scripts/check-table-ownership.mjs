#!/usr/bin/env node
/**
 * Table ownership (docs/architecture.md): fails when
 * - a file of src/ names a table that its module does not own: in SQL (upper-case FROM, JOIN, INTO,
 *   UPDATE, TABLE followed by a name) or as a statement part's `table: '…'` (RowInsert, ClaimInsert);
 * - a table the migrations leave (CREATE TABLE in an `up`, less DROP TABLE) has no owner (the `tables` of
 *   its module's facts.ts, read by scripts/table-ownership.mjs), or an owner declares a table no migration
 *   leaves, or two declare one;
 * - a file of src/ uses a table (a `table: '…'` part, INSERT INTO, UPDATE … SET, DELETE FROM, FROM, JOIN)
 *   that no migration makes and no module owns.
 * A module's own tables may be named anywhere in it; the composition root (src/*.ts) and src/shared own
 * none but src/shared/web (the page kernel) and src/shared/crypto (the SECRETS_KEY fingerprints); migrations
 * (src/shared/database/migrations) own the schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { KNOWN_VIOLATIONS, NAMED_AS_DATA, tableOwners } from './table-ownership.mjs';

const root = join(import.meta.dirname, '..');
const src = join(root, process.argv[2] ?? 'src');
const SQL_NAME = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?: IF EXISTS)?)\s+([a-z_][a-z0-9_]*)\b|\btable:\s*'([a-z_][a-z0-9_]*)'/g;
const MIGRATIONS = join(src, 'shared', 'database', 'migrations');
const { owners: TABLE_OWNERS, problems: declared } = tableOwners(src);

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) yield p;
  }
}

/**
 * The module a file (relative to src/) belongs to: its folder under modules/, or under modules/auth/ for
 * the six auth modules (modules/auth/grants/… → grants); the auth group's own files (modules/auth/*.ts)
 * are `auth`, which owns no table; shared/web/… is the page kernel.
 */
function moduleOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'modules') return parts[1] === 'auth' && parts.length > 3 ? parts[2] : parts[1];
  for (const kernel of ['shared/web', 'shared/crypto']) if (rel.startsWith(`${kernel}/`)) return kernel;
  return null;
}

/** The tables the migrations leave, in file (timestamp) order: each `up` body's CREATE TABLE, less its DROP TABLE. */
function tablesOfMigrations() {
  const live = new Set();
  const names = readdirSync(MIGRATIONS)
    .filter((n) => /^\d+-.*\.ts$/.test(n) && !n.endsWith('.spec.ts'))
    .sort();
  for (const name of names) {
    const text = readFileSync(join(MIGRATIONS, name), 'utf8');
    const up = text.slice(text.indexOf('async up('), text.includes('async down(') ? text.indexOf('async down(') : undefined);
    for (const [, verb, table] of up.matchAll(/\b(CREATE|DROP) TABLE (?:IF (?:NOT )?EXISTS )?([a-z_][a-z0-9_]*)/g)) {
      if (verb === 'CREATE') live.add(table);
      else live.delete(table);
    }
  }
  return live;
}

/** Text without its comments (line and block comments), keeping string contents such as SQL. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

/**
 * Every table name the code uses, whether or not it has an owner: a statement part's `table: '…'`, and in
 * SQL (comments left out) the name after INSERT INTO, UPDATE (followed by SET, with or without an alias),
 * DELETE FROM, FROM and JOIN — less what is not a table: a function call (`FROM unnest(`), a catalog
 * (`pg_…`, `information_schema`) and a common table expression named anywhere in src (`name AS (`).
 */
function namesUsedAsTables(texts) {
  const ctes = new Set();
  for (const text of texts.values())
    for (const [, name] of text.matchAll(/\b([a-z_][a-z0-9_]*)(?:\s*\([^()]*\))?\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/g)) ctes.add(name);
  const used = new Map();
  const USE =
    /\btable:\s*'([a-z_][a-z0-9_]*)'|\b(?:INSERT INTO|DELETE FROM|FROM|JOIN)\s+([a-z_][a-z0-9_]*)\b(\s*\()?|\bUPDATE\s+([a-z_][a-z0-9_]*)(?:\s+(?:AS\s+)?[a-z_][a-z0-9_]*)?\s+SET\b/g;
  for (const [rel, text] of texts.entries()) {
    for (const [, part, sqlName, call, updated] of withoutComments(text).matchAll(USE)) {
      const name = part ?? sqlName ?? updated;
      if (call || name.startsWith('pg_') || name === 'information_schema' || ctes.has(name)) continue;
      if (!used.has(name)) used.set(name, rel);
    }
  }
  return used;
}

const found = [];
const asData = [];
const texts = new Map();
for (const file of files(src)) {
  const rel = relative(src, file).split(sep).join('/');
  if (rel.startsWith('shared/database/migrations/')) continue;
  const module = moduleOf(rel);
  const text = readFileSync(file, 'utf8');
  texts.set(rel, text);
  const seen = new Set();
  const dataNames = new Set(NAMED_AS_DATA.filter((d) => d.file === rel).flatMap((d) => d.tables));
  for (const [, sqlName, partName] of text.matchAll(SQL_NAME)) {
    const name = sqlName ?? partName;
    const owner = TABLE_OWNERS[name];
    if (owner === undefined || owner === module || seen.has(name)) continue;
    seen.add(name);
    if (partName && dataNames.has(name)) {
      asData.push(`${rel} ${name}`);
      continue;
    }
    found.push({ file: rel, table: name, owner, module: module ?? '(none)' });
  }
}
const live = tablesOfMigrations();
const unowned = [...live].filter((t) => TABLE_OWNERS[t] === undefined);
const stale = Object.keys(TABLE_OWNERS).filter((t) => !live.has(t));
// a name used as a table that no migration makes and no module owns: a missing migration and owner, or a typo
const unknown = [...namesUsedAsTables(texts)].filter(([name]) => !live.has(name) && TABLE_OWNERS[name] === undefined);
const dataGone = NAMED_AS_DATA.flatMap((d) => d.tables.map((t) => `${d.file} ${t}`)).filter((k) => !asData.includes(k));

const key = (v) => `${v.file} ${v.table}`;
const known = new Set(KNOWN_VIOLATIONS.map(key));
const unexpected = found.filter((v) => !known.has(key(v)));
const gone = KNOWN_VIOLATIONS.filter((k) => !found.some((v) => key(v) === key(k)));
for (const v of unexpected) console.error(`✘ ${v.file} (module ${v.module}) names table ${v.table}, owned by ${v.owner}`);
for (const k of gone) console.error(`✘ scripts/table-ownership.mjs lists ${k.file} → ${k.table}, which no longer occurs: remove it from KNOWN_VIOLATIONS`);
for (const t of unowned)
  console.error(`✘ table ${t} (made by a migration) has no owner: add it to the tables of its module's facts.ts and to docs/architecture.md`);
for (const [t, rel] of unknown)
  console.error(
    `✘ ${rel} uses table ${t}, which no migration makes and no module owns: add its migration (src/shared/database/migrations), its owner to the tables of its module's facts.ts and to docs/architecture.md`,
  );
for (const t of stale) console.error(`✘ the facts.ts of ${TABLE_OWNERS[t]} declares table ${t}, which no migration leaves: remove it`);
for (const k of dataGone) console.error(`✘ scripts/table-ownership.mjs lists ${k} in NAMED_AS_DATA, which no longer occurs: remove it`);
for (const d of declared) console.error(`✘ ${d}`);
if (unexpected.length + gone.length + unowned.length + stale.length + dataGone.length + unknown.length + declared.length > 0) process.exit(1);
console.log(
  `✔ table ownership: ${Object.keys(TABLE_OWNERS).length} tables, each made by the migrations and owned once (the modules' facts.ts); ${found.length} known violation(s) left (scripts/table-ownership.mjs)`,
);

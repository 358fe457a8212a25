#!/usr/bin/env node
/**
 * Table ownership (docs/architecture.md): fails when a file of src/ names, in SQL, a table that its
 * module does not own. SQL is recognised by its upper-case keywords (FROM, JOIN, INTO, UPDATE, TABLE)
 * followed by a table name. A module's own tables may be named anywhere in it; the composition root
 * (src/*.ts) and src/shared own none but src/shared/web (the page kernel), which owns its tables; migrations (src/shared/database/migrations) own the schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { KNOWN_VIOLATIONS, TABLE_OWNERS } from './table-ownership.mjs';

const root = join(import.meta.dirname, '..');
const src = join(root, process.argv[2] ?? 'src');
const SQL_NAME = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?: IF EXISTS)?)\s+([a-z_][a-z0-9_]*)\b/g;

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
  return rel.startsWith('shared/web/') ? 'shared/web' : null;
}

const found = [];
for (const file of files(src)) {
  const rel = relative(src, file).split(sep).join('/');
  if (rel.startsWith('shared/database/migrations/')) continue;
  const module = moduleOf(rel);
  const text = readFileSync(file, 'utf8');
  const seen = new Set();
  for (const [, name] of text.matchAll(SQL_NAME)) {
    const owner = TABLE_OWNERS[name];
    if (owner === undefined || owner === module || seen.has(name)) continue;
    seen.add(name);
    found.push({ file: rel, table: name, owner, module: module ?? '(none)' });
  }
}

const key = (v) => `${v.file} ${v.table}`;
const known = new Set(KNOWN_VIOLATIONS.map(key));
const unexpected = found.filter((v) => !known.has(key(v)));
const gone = KNOWN_VIOLATIONS.filter((k) => !found.some((v) => key(v) === key(k)));
for (const v of unexpected) console.error(`✘ ${v.file} (module ${v.module}) names table ${v.table}, owned by ${v.owner}`);
for (const k of gone) console.error(`✘ scripts/table-ownership.mjs lists ${k.file} → ${k.table}, which no longer occurs: remove it from KNOWN_VIOLATIONS`);
if (unexpected.length + gone.length > 0) process.exit(1);
console.log(`✔ table ownership: ${Object.keys(TABLE_OWNERS).length} tables, ${found.length} known violation(s) left (scripts/table-ownership.mjs)`);

#!/usr/bin/env node
/**
 * `npm run check:owner-table` (one of `npm run checks`): docs/architecture.md's table of owners ("Who owns
 * which table") says what the modules declare (the `tables` of each facts.ts, read by
 * scripts/table-ownership.mjs), row for row. A new module's row is written by hand: the check names it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableOwners } from './table-ownership.mjs';

const root = join(import.meta.dirname, '..');

/**
 * The owners docs/architecture.md's table lists ("Who owns which table"), as `module → tables`: a row's
 * first cell names the module (`auth/grants` is grants; `` `src/shared/web` (the page kernel) `` is shared/web).
 */
export function documentedOwners(markdown) {
  const section = markdown.split(/^## Who owns which table$/m)[1]?.split(/^## /m)[0] ?? '';
  const owners = {};
  for (const [, first, rest] of section.matchAll(/^\| ([^|]+) \| ([^|]+) \|$/gm)) {
    if (first === 'module' || /^-+$/.test(first)) continue;
    const module = first
      .replaceAll('`', '')
      .split(' ')[0]
      .replace(/^src\//, '')
      .replace(/^auth\//, '');
    owners[module] = [...rest.matchAll(/`([a-z_][a-z0-9_]*)`/g)].map((m) => m[1]).sort();
  }
  return owners;
}

/** Where the documented table and the declarations differ, one line each; empty when they agree. */
export function ownerTableDifferences(documented, owners) {
  const declaredBy = {};
  for (const [table, module] of Object.entries(owners)) (declaredBy[module] ??= []).push(table);
  const differences = [];
  for (const module of new Set([...Object.keys(documented), ...Object.keys(declaredBy)])) {
    const doc = documented[module] ?? [];
    const decl = (declaredBy[module] ?? []).sort();
    if (doc.join() !== decl.join()) {
      differences.push(
        `docs/architecture.md lists for ${module} ${doc.join(', ') || 'no row'}; its facts.ts declares ${decl.join(', ') || 'no table'}: make the row say what the module declares`,
      );
    }
  }
  return differences;
}

const { owners } = tableOwners(join(root, 'src'));
const differences = ownerTableDifferences(documentedOwners(readFileSync(join(root, 'docs/architecture.md'), 'utf8')), owners);
for (const d of differences) console.error(`✘ ${d}`);
if (differences.length > 0) process.exit(1);
console.log(`✔ owner table: docs/architecture.md lists the ${Object.keys(owners).length} tables as the modules' facts.ts declare them`);

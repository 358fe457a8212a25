import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Which module (or `shared/web`, the page kernel; `shared/crypto`, infrastructure) owns which table
 * (docs/architecture.md): only the owner names its table in SQL. Other modules reach its data through its
 * index.ts (services, ports) or compose its SQL parts (sql.ts). Each owner declares its tables in its own
 * facts.ts (`declareModuleFacts({ module: 'products', …, tables: ['products'] })`, src/shared/module-facts.ts);
 * this reads them from there: every facts.ts under src/modules and src/shared, its `module:` (the folder's
 * name: src/modules/<name>/, or src/modules/auth/<name>/ for the six auth modules) and its `tables: [ … ]`.
 * Checked by scripts/check-table-ownership.mjs (npm run lint:deps, part of npm test).
 */
export function tableOwners(src) {
  const owners = {};
  const problems = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'facts.ts') {
        const rel = relative(src, p).split(sep).join('/');
        const text = readFileSync(p, 'utf8');
        const module = /^\s*module:\s*'([^']+)'/m.exec(text)?.[1];
        const folder = rel.startsWith('modules/') ? rel.split('/').at(-2) : rel.slice(0, -'/facts.ts'.length);
        if (module !== folder) problems.push(`src/${rel} declares module '${module}': write its folder's name, '${folder}'`);
        const list = /^\s*tables:\s*\[([^\]]*)\]/m.exec(text)?.[1] ?? '';
        for (const [, table] of list.matchAll(/'([a-z_][a-z0-9_]*)'/g)) {
          if (owners[table] !== undefined) problems.push(`the table ${table} is declared by both ${owners[table]} and ${folder}`);
          owners[table] = folder;
        }
      }
    }
  };
  for (const top of ['modules', 'shared']) walk(join(src, top));
  return { owners, problems };
}

/**
 * Files that name other owners' tables as data, not as SQL they run on their own: each with the tables and
 * why. The check fails when a listed name no longer occurs.
 */
export const NAMED_AS_DATA = [
  {
    file: 'shared/crypto/secret-box.ts',
    tables: ['users', 'webhook_endpoints', 'developers'],
    why: 'the sealed secret columns (CONTRACT §8): start-up sealing and the key check find the secrets to seal or open there',
  },
];

/**
 * Known violations still to be removed: `file` (relative to src/) names `table` it does not own. Each
 * is listed with the reason it is still here; the check fails on any violation not listed, and on a
 * listed one that is gone (so this list only shrinks).
 */
export const KNOWN_VIOLATIONS = [];

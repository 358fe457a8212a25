#!/usr/bin/env node
/**
 * The module graph of docs/architecture.md, read from the sources: a module is src/modules/<name>/ or
 * src/modules/auth/<name>/ (the auth group's own files, src/modules/auth/*.ts, are the node `auth`); an
 * arrow A → B is any import from a file of A (tests excluded) of a file of B, its `index.ts` or its
 * `sql.ts` alike. `npm run lint:deps` runs it with `--check`: it fails when the modules form a cycle
 * (A → … → A, a pair that depends on each other included), which the file-level `no-circular` rule of
 * .dependency-cruiser.cjs cannot see once one side imports only a leaf `sql.ts`.
 *
 *   node scripts/module-graph.mjs           the figures: modules, arrows, pairs both ways, cycles
 *   node scripts/module-graph.mjs --check   exit 1 on any cycle between modules
 *   node scripts/module-graph.mjs --mermaid the arrows as mermaid lines
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Arrows known to close a cycle, each to be removed: the check ignores them, fails on any other cycle,
 * and fails when one of them is gone but still listed, so the list only shrinks. Empty since issue 48
 * removed the seven two-way pairs; keep it so.
 */
const KNOWN_CYCLE_ARROWS = [];

const root = resolve(import.meta.dirname, '..');
const modulesDir = join(root, 'src/modules');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module a path of src/modules belongs to, or undefined outside src/modules. */
export function moduleOf(path) {
  const rel = relative(modulesDir, path).split(/[\\/]/);
  if (rel[0] === '..' || rel.length < 2) return undefined;
  if (rel[0] !== 'auth') return rel[0];
  return rel.length === 2 ? 'auth' : `auth/${rel[1]}`;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** The module graph: `edges` maps "A B" to the files of A that import B (`sql` when only sql.ts is named). */
export function moduleGraph() {
  const modules = new Set();
  const edges = new Map();
  for (const file of files(modulesDir)) {
    const from = moduleOf(file);
    modules.add(from);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith('.')) continue;
      let target = resolve(dirname(file), spec.replace(/\.js$/, ''));
      if (!existsSync(`${target}.ts`) && existsSync(join(target, 'index.ts'))) target = join(target, 'index.ts');
      const to = moduleOf(target);
      if (to === undefined || to === from) continue;
      const key = `${from} ${to}`;
      const edge = edges.get(key) ?? { from, to, files: new Set(), sqlOnly: true };
      edge.files.add(relative(root, file));
      if (!/\/sql(\.ts)?$/.test(spec)) edge.sqlOnly = false;
      edges.set(key, edge);
    }
  }
  return { modules: [...modules].sort(), edges: [...edges.values()] };
}

/** Strongly connected components of more than one module (Tarjan). */
export function cycles({ modules, edges }) {
  const next = new Map(modules.map((m) => [m, []]));
  for (const e of edges) next.get(e.from).push(e.to);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const m of modules) if (!idx.has(m)) visit(m);
  return out;
}

function main() {
  const graph = moduleGraph();
  const keys = new Set(graph.edges.map((e) => `${e.from} ${e.to}`));
  const pairs = graph.edges.filter((e) => e.from < e.to && keys.has(`${e.to} ${e.from}`)).map((e) => `${e.from}↔${e.to}`);
  const sccs = cycles(graph);
  const unknown = { modules: graph.modules, edges: graph.edges.filter((e) => !KNOWN_CYCLE_ARROWS.includes(`${e.from} ${e.to}`)) };
  const newCycles = cycles(unknown);
  const gone = KNOWN_CYCLE_ARROWS.filter((k) => !keys.has(k));
  if (process.argv.includes('--mermaid')) {
    for (const e of [...graph.edges].sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`))) {
      console.log(`  ${e.from.replace('auth/', '')} ${e.sqlOnly ? '-.->' : '-->'} ${e.to.replace('auth/', '')}`);
    }
    return;
  }
  if (process.argv.includes('--check')) {
    for (const k of gone) console.error(`module-graph: the arrow ${k.replace(' ', ' → ')} is gone: take it out of KNOWN_CYCLE_ARROWS`);
    if (newCycles.length === 0) process.exit(gone.length > 0 ? 1 : 0);
    console.error('module-graph: modules that depend on each other (an arrow A → B counts any import of B, index.ts or sql.ts):');
    for (const scc of newCycles) {
      console.error(`  cycle: ${scc.join(', ')}`);
      for (const e of unknown.edges.filter((x) => scc.includes(x.from) && scc.includes(x.to))) {
        console.error(`    ${e.from} → ${e.to}: ${[...e.files].join(', ')}`);
      }
    }
    console.error('Move the part into the module that owns it, or invert the arrow through a port (docs/architecture.md).');
    process.exit(1);
  }
  console.log(`modules: ${graph.modules.length}`);
  console.log(`arrows: ${graph.edges.length} (${graph.edges.filter((e) => e.sqlOnly).length} to sql.ts only)`);
  console.log(`pairs both ways: ${pairs.length}${pairs.length ? ` (${pairs.join(', ')})` : ''}`);
  console.log(`cycles: ${sccs.length}${sccs.length ? ` (${sccs.map((s) => s.join(' ')).join('; ')})` : ''}`);
  if (sccs.length === 0) {
    // each module's level: 0 when it imports no module, else one above the highest it imports
    const level = new Map();
    const of = (m) => {
      if (!level.has(m)) level.set(m, Math.max(-1, ...graph.edges.filter((e) => e.from === m).map((e) => of(e.to))) + 1);
      return level.get(m);
    };
    const levels = [];
    for (const m of graph.modules) (levels[of(m)] ??= []).push(m);
    console.log(`levels, bottom first: ${levels.map((l) => l.join(' ')).join(' < ')}`);
  }
}

if (process.argv[1] === import.meta.filename) main();

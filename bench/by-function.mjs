// Where a request's instructions go, by JavaScript function and by package (issue 47): the service (or the yardstick's
// baseline) under valgrind's callgrind, as bench/instructions.mjs counts it, with V8's `--perf-basic-prof` map of
// the code it writes at run time. callgrind names code it has no symbol for by its address; each such name is looked
// up in /tmp/perf-<pid>.map (start, size, name of every piece of code V8 made, interpreted functions included with
// `--interpreted-frames-native-stack`), so a count is by function, not by address. A count, not a sample: the same
// build gives the same figures to a few per cent, where a time profile of a flat program ranks noise.
// Prints the self instructions per request of the top functions, and grouped by where their code lives: a package
// under node_modules, the service's own files (dist/src/…), Node's own JavaScript (node:…), V8's builtins, the node
// binary's C++ (V8's runtime, its collector and compilers, libuv, OpenSSL), the C library, and code V8 made that the
// map does not name.
// --inclusive REGEX: the matching functions with their calls' instructions (inlined callees are in their caller);
// --callers REGEX: who calls the matching functions (e.g. a builtin), by their calls' instructions.
//   node bench/by-function.mjs [--side DIR|baseline] [--scenario prepare2] [--warmup 30000] [--requests 2000]
//                              [--env K=V,…] [--top 40] [--inclusive REGEX] [--callers REGEX] [--json FILE]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callGraph, callgrindArgs, dumpOf, KINDS, ROUND_REQUESTS, WARMUP_REQUESTS, warmThenInstrument } from './callgrind.mjs';
import { cliArg as arg, envOf, loadAmount, startSideOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const SIDE = arg('side', '.');
const SCENARIO = arg('scenario', 'prepare2');
const WARMUP = Number(arg('warmup', String(WARMUP_REQUESTS)));
const REQUESTS = Number(arg('requests', String(ROUND_REQUESTS)));
const TOP = Number(arg('top', '40'));

/** The perf map's entries, sorted by start: [start, end, name]. */
function perfMap(pid) {
  const entries = [];
  for (const line of readFileSync(`/tmp/perf-${pid}.map`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) entries.push([parseInt(m[1], 16), parseInt(m[1], 16) + parseInt(m[2], 16), m[3]]);
  }
  entries.sort((x, y) => x[0] - y[0]);
  return entries;
}

/** The map's name of the code at `address`, the last entry that covers it (V8 reuses addresses once code is freed). */
function lookUp(entries, address) {
  let lo = 0;
  let hi = entries.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid][0] <= address) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // entries that start at or before the address and still cover it: the latest written wins (the map is in order of writing)
  for (let i = found; i >= 0 && i > found - 64; i--) if (entries[i][1] > address) return entries[i][2];
  return null;
}

/** Where a function's code lives, from its map name (`JS:*handle /…/node_modules/express/lib/router/layer.js:86:…`) or symbol. */
export function groupOf(name) {
  if (name === null) return 'V8-made code the map does not name';
  if (name.startsWith('RegExp')) return 'V8 regular expressions (compiled)';
  const file = / (\S+?):\d+(?::\d+)?$/.exec(name)?.[1] ?? / (\S+)$/.exec(name)?.[1] ?? '';
  if (file.startsWith('node:'))
    return `node: ${file
      .slice(5)
      .split('/')[0]
      .replace(/^internal$/, `internal/${file.split('/')[2] ?? ''}`)}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  const own = /\/(?:dist\/)?src\/(.*)$/.exec(file);
  if (own)
    return `service: ${own[1]
      .split('/')
      .slice(0, own[1].startsWith('modules/') || own[1].startsWith('shared/') ? 2 : 1)
      .join('/')}`;
  if (/baseline\.mjs$/.test(file)) return 'baseline.mjs';
  if (/^(?:Builtin|BytecodeHandler|RegExp|Stub):/.test(name) || /^(?:Builtin:|Bytecode)/.test(name)) return 'V8 builtins (made at start)';
  return file ? `other: ${file}` : 'V8 code without a file';
}

/** A symbol of the node binary or a library, by what it belongs to. */
function nativeGroup(fn) {
  // the collector and the compilers as countOf splits them off (callgrind.mjs)
  if (KINDS.gc.test(fn)) return 'C++: V8 collector';
  if (KINDS.compile.test(fn)) return 'C++: V8 compilers';
  if (/^Builtins_/.test(fn)) return 'V8 builtins (embedded)';
  if (/^v8::|^v8_inspector/.test(fn)) return 'C++: V8 runtime';
  if (/^uv_|^uv__/.test(fn)) return 'C++: libuv';
  if (/^node::/.test(fn)) return 'C++: node';
  if (/^(?:llhttp|llhttp__)/.test(fn)) return 'C++: llhttp';
  if (/SHA|sha256|EVP_|OPENSSL|CRYPTO_|ossl_/i.test(fn)) return 'C++: OpenSSL';
  if (/^simdutf|^simdjson|^ada::/.test(fn)) return 'C++: simdutf/ada';
  return null;
}

const FROM = arg('from');
let total, REQS, byFunction, byGroup, calls, unnamed;
if (FROM) {
  // --from FILE: the figures of an earlier run's --json, analysed again (--inclusive, --callers) without counting
  const saved = JSON.parse(readFileSync(FROM, 'utf8'));
  ({ total } = saved);
  REQS = saved.requests;
  byFunction = new Map(Object.entries(saved.functions));
  byGroup = new Map(Object.entries(saved.groups));
  calls = new Map(Object.entries(saved.calls).map(([k, m]) => [k, new Map(Object.entries(m))]));
  unnamed = byFunction.get('unnamed V8 code') ?? 0;
} else {
  REQS = REQUESTS;
  ({ total, byFunction, byGroup, calls, unnamed } = await countByFunction());
}

async function countByFunction() {
  const work = mkdtempSync(join(tmpdir(), 'bench-by-function-'));
  // V8's log (which --perf-basic-prof turns on) goes to the work folder, not to the cwd as isolate-…-v8.log
  const NODE_ARGS = ['--perf-basic-prof', '--interpreted-frames-native-stack', '--no-logfile-per-isolate', `--logfile=${join(work, 'v8.log')}`];
  const HOST = '127.0.0.1';
  const wrapper = ['valgrind', ...callgrindArgs(work, ['--instr-atstart=no'])];
  const service = await startSideOnFreshDatabase(SIDE, {
    name: 'byfunction',
    env: envOf(arg('env')),
    nodeArgs: NODE_ARGS,
    wrapper,
    readyWithinMs: 600_000,
    yardstick: arg('yardstick', '../shared/bench'),
  });
  let text;
  let entries;
  const pid = service.proc.pid;
  try {
    const scenario = (await yardstickScenarios(service.project))[SCENARIO];
    const origin = new URL(service.project.base).origin;
    const load = (amount) => loadAmount(origin, scenario, amount);
    await warmThenInstrument(work, pid, HOST, load, WARMUP);
    // a first counted round settles what instrumentation newly translates; the second is the figure
    await dumpOf(work, pid, () => load(REQUESTS), HOST);
    text = await dumpOf(work, pid, () => load(REQUESTS), HOST);
    entries = perfMap(pid);
  } finally {
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  rmSync(`/tmp/perf-${pid}.map`, { force: true });
  const total = Number(/^(?:totals|summary): (\d+)/m.exec(text)[1]);
  const graph = callGraph(text);
  /** a callgrind name, with a JIT address replaced by the perf map's name of its code */
  const known = new Map();
  const named = (fn) => {
    let n = known.get(fn);
    if (n === undefined) {
      // callgrind marks a function's further contexts (recursion, several call chains) with 'N after its name
      const address = /^0x([0-9a-f]+)(?:'\d+)?$/.exec(fn);
      n = address ? (lookUp(entries, parseInt(address[1], 16)) ?? 'unnamed V8 code') : fn;
      known.set(fn, n);
    }
    return n;
  };
  const byFunction = new Map();
  const byGroup = new Map();
  let unnamed = 0;
  for (const [fn, cost] of graph.self) {
    const name = named(fn);
    let group = nativeGroup(fn);
    if (/^0x[0-9a-f]+(?:'\d+)?$/.test(fn)) {
      if (name === 'unnamed V8 code') unnamed += cost;
      group = groupOf(name === 'unnamed V8 code' ? null : name);
    } else if (group === null) group = /^(?:__|_IO|mem|str|malloc|free|_int_|pthread|epoll|read|write|__libc)/.test(fn) ? 'C library' : `C++: other`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + cost);
    byGroup.set(group, (byGroup.get(group) ?? 0) + cost);
  }
  // calls by name: caller -> callee -> inclusive instructions
  const calls = new Map();
  for (const [caller, out] of graph.calls) {
    const from = named(caller);
    let m = calls.get(from);
    if (!m) calls.set(from, (m = new Map()));
    for (const [callee, cost] of out) {
      const to = named(callee);
      if (to === from) continue; // a function's calls into itself (recursion, or two pieces of its code): counted once, in self
      m.set(to, (m.get(to) ?? 0) + cost);
    }
  }
  return { total, byFunction, byGroup, calls, unnamed };
}

const inclusive = (name) => (byFunction.get(name) ?? 0) + [...(calls.get(name) ?? new Map()).values()].reduce((a, b) => a + b, 0);
const per = (n) => Math.round(n / REQS);
const pct = (n) => `${((100 * n) / total).toFixed(1)} %`;
const short = (f) =>
  f
    .replace(/\/work\/[^ ]*?node_modules\//g, 'nm/')
    .replace(/(?:file:\/\/)?\/work\/[^ ]*?dist\/src\//g, 'src/')
    .slice(0, 150);
console.log(`${SIDE} ${SCENARIO}: ${per(total).toLocaleString('en')} instructions per request (round of ${REQS}); unnamed V8 code ${pct(unnamed)}`);
console.log('\nby group (self instructions per request):');
for (const [g, c] of [...byGroup].sort((x, y) => y[1] - x[1])) if (per(c) > 0) console.log(`  ${String(per(c)).padStart(8)}  ${pct(c).padStart(7)}  ${g}`);
console.log(`\ntop ${TOP} functions by self instructions:`);
for (const [f, c] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, TOP))
  console.log(`  ${String(per(c)).padStart(8)}  ${pct(c).padStart(7)}  ${short(f)}`);
// --inclusive REGEX: the functions whose names match, with what they cost including their calls, and their largest callees
const inc = arg('inclusive');
if (inc) {
  const re = new RegExp(inc);
  console.log(`\ninclusive instructions per request of /${inc}/:`);
  for (const name of [...byFunction.keys()]
    .filter((n) => re.test(n))
    .sort((x, y) => inclusive(y) - inclusive(x))
    .slice(0, TOP)) {
    console.log(`  ${String(per(inclusive(name))).padStart(8)}  (self ${per(byFunction.get(name))})  ${short(name)}`);
    for (const [to, c] of [...(calls.get(name) ?? new Map())].sort((x, y) => y[1] - x[1]).slice(0, 6))
      if (per(c) > 200) console.log(`      ${String(per(c)).padStart(8)}  → ${short(to)}`);
  }
}
// --callers REGEX: who calls the functions whose names match, and how much of their cost each caller's calls hold
const who = arg('callers');
if (who) {
  const re = new RegExp(who);
  const by = new Map();
  for (const [from, out] of calls) for (const [to, c] of out) if (re.test(to)) by.set(from, (by.get(from) ?? 0) + c);
  console.log(`\ncallers of /${who}/ (inclusive instructions per request of their calls):`);
  for (const [from, c] of [...by].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`  ${String(per(c)).padStart(8)}  ${short(from)}`);
}
const out = arg('json');
if (out)
  writeFileSync(
    out,
    JSON.stringify({
      side: SIDE,
      scenario: SCENARIO,
      requests: REQS,
      total,
      groups: Object.fromEntries(byGroup),
      functions: Object.fromEntries(byFunction),
      calls: Object.fromEntries([...calls].map(([k, m]) => [k, Object.fromEntries(m)])),
    }),
  );

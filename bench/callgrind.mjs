// What bench/instructions.mjs and bench/token-statement-instructions.mjs share: valgrind's callgrind, driven through
// vgdb. `work` is a folder of the caller's own, for valgrind's pipes, its log and the dumps.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** valgrind's arguments for node under callgrind (V8's code is written at run time: --smc-check). */
export const callgrindArgs = (work, extra = []) => [
  '--tool=callgrind',
  '--smc-check=all-non-file',
  ...extra,
  `--vgdb-prefix=${join(work, 'vgdb')}`,
  `--callgrind-out-file=${join(work, 'callgrind.out')}`,
  `--log-file=${join(work, 'valgrind.log')}`,
];

/**
 * A monitor command (`instrumentation on`, `zero`, `dump`) to the process `pid` under callgrind. valgrind names its
 * pipes after $USER and $HOST as that process saw them: `host` is its HOST (the service runs with HOST=127.0.0.1).
 */
export function vgdb(work, pid, command, host = process.env.HOST) {
  try {
    execFileSync('vgdb', [`--vgdb-prefix=${join(work, 'vgdb')}`, `--pid=${pid}`, ...command.split(' ')], {
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, HOST: host },
    });
  } catch (err) {
    throw new Error(`vgdb ${command} (pid ${pid}; ${readdirSync(work).join(', ')}): ${err.stderr || err.stdout || err.message}`);
  }
}

/**
 * How long a server warms before it is counted, and how many requests a round counts (the defaults of
 * instructions.mjs and ladder.mjs --instructions). V8 still compiles ~800 functions in the service's first 14,000
 * prepares and ~2 per 1,000 after 60,000 (`--trace-opt` at full speed): a 2,000-request warm-up left 135–200k of a
 * request's instructions in the compilers and the total 25–40 % high (bench/RESULTS.md, fifth session of issue 47).
 */
export const WARMUP_REQUESTS = 30_000;
export const ROUND_REQUESTS = 2_000;

/**
 * Warms the process `pid` (started with `--instr-atstart=no`) with `load(warmup)` uninstrumented, then turns
 * instrumentation on and warms it again with `load(500)` (valgrind's new translations), ready for countOf.
 */
export async function warmThenInstrument(work, pid, host, load, warmup) {
  await load(warmup);
  vgdb(work, pid, 'instrumentation on', host);
  await load(500);
}

/** Counts the instructions of `run` (an async function) in the process `pid`: counters zeroed before, dumped and read after. */
export async function instructionsOf(work, pid, run, host) {
  return (await countOf(work, pid, run, host)).total;
}

/**
 * What V8 spends beside the program, by the self cost of the node binary's own functions (it is built with its
 * symbols): its garbage collector, and its compilers (bytecode, Sparkplug, Maglev, Turbofan/Turboshaft). A round's
 * total moves by ±30 % between processes of the same code with where its collections fall (bench/RESULTS.md); the
 * rest, `program`, is the JavaScript and the C++ it calls (Node's streams and sockets, V8's builtins and runtime).
 */
export const KINDS = {
  gc: /^(?:v8::internal::(?:Heap\b|Heap::|Scavenger|ScavengerCollector|.*Marking|MarkCompact|MinorMarkSweep|MinorMS|.*Sweeper|.*Evacuat|.*Collector|MemoryAllocator|PagedSpace|.*NewSpace|SemiSpace|.*RememberedSet|.*SlotSet|.*MarkingVisitor|.*MarkingBarrier|MemoryChunk|.*PageMetadata|.*Page::|.*LargeObjectSpace|HeapObjectVisitor|.*ObjectStatsCollector|ArrayBufferSweeper)|cppgc::|heap::base::)/,
  compile:
    /^v8::internal::(?:compiler::|maglev::|baseline::|interpreter::Bytecode|Parser|ParserBase|PreParser|Scanner|Compiler::|.*Compil|AstValueFactory|DeclarationScope|Scope::|Zone::)/,
};

/** The callgrind dump of `run` (an async function) in the process `pid`: counters zeroed before, dumped and read after. */
export async function dumpOf(work, pid, run, host) {
  vgdb(work, pid, 'zero', host);
  await run();
  const before = new Set(readdirSync(work));
  vgdb(work, pid, 'dump', host);
  const dumped = readdirSync(work).filter((f) => f.startsWith('callgrind.out') && !before.has(f));
  if (dumped.length !== 1) throw new Error(`expected one new dump, found ${dumped.join(', ') || 'none'}`);
  const text = readFileSync(join(work, dumped[0]), 'utf8');
  rmSync(join(work, dumped[0]));
  return text;
}

/** As instructionsOf, split: `{ total, gc, compile, program }` (program = total − gc − compile). */
export async function countOf(work, pid, run, host) {
  const text = await dumpOf(work, pid, run, host);
  const line = /^(?:totals|summary): (\d+)/m.exec(text);
  if (!line) throw new Error('no totals in the dump');
  const total = Number(line[1]);
  const split = { gc: 0, compile: 0 };
  let sum = 0;
  for (const [fn, cost] of callGraph(text).self) {
    sum += cost;
    for (const [kind, re] of Object.entries(KINDS)) if (re.test(fn)) split[kind] += cost;
  }
  // the parser's own check: every instruction is some function's self cost. A dump's functions have summed to up to
  // 0.14 % more than its total (a 2,000-request round of the ladder, seventh session of issue 47; earlier, rounds
  // below 1,000 requests): within 1 % the split stands; a parser that misread the format is off by far more (628x
  // when the cost line after a `calls=` was not skipped)
  if (Math.abs(sum - total) > total * 0.01) throw new Error(`the functions' self costs sum to ${sum}, the dump's total is ${total}`);
  return { total, ...split, program: total - split.gc - split.compile };
}

/**
 * A callgrind dump (events: Ir only) read by function: `self` (function -> its own instructions: its cost lines,
 * except the line after a `calls=`) and `calls` (caller -> callee -> the inclusive instructions of its calls to it:
 * that line). Names are compressed as `fn=(id) name` the first time, `fn=(id)` after, in one space shared with
 * `cfn=`. A function's inclusive cost is its self cost and its calls' (recursion counted again at each level).
 */
export function callGraph(text) {
  const names = new Map();
  const nameOf = (s) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(s);
    if (!m) return s;
    if (m[2] !== undefined) names.set(m[1], m[2]);
    return names.get(m[1]);
  };
  const self = new Map();
  const calls = new Map();
  let fn = '?';
  let callee = null;
  let callCost = false;
  for (const line of text.split('\n')) {
    const c = line.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      const parts = line.split(' ');
      const n = parts.length > 1 ? Number(parts[parts.length - 1]) : 0;
      if (callCost) {
        callCost = false;
        let out = calls.get(fn);
        if (!out) calls.set(fn, (out = new Map()));
        out.set(callee, (out.get(callee) ?? 0) + n);
      } else self.set(fn, (self.get(fn) ?? 0) + n);
    } else if (line.startsWith('fn=')) fn = nameOf(line.slice(3));
    else if (line.startsWith('cfn=')) callee = nameOf(line.slice(4));
    else if (line.startsWith('calls=')) callCost = true;
  }
  return { self, calls };
}

// The service's instructions per request (issue 47), counted by valgrind's callgrind: a count of the work its
// process does, not a time, so it does not move with what else the machine runs. On a 2-core VM whose plain loop took
// 0.70–1.10 s from one run to the next, req/s and CPU µs per request could not tell a 5 % change from the noise; an
// instruction count can. It says nothing of PostgreSQL's side (its backends are other processes), nor of what an
// instruction costs (cache misses, system calls' kernel time): a change it finds still wants the yardstick on a quiet
// machine for its throughput.
//
// Each side (a built copy of the service, as bench/ab.mjs takes them) is started under callgrind with instrumentation
// off, on a fresh database; --warmup requests of the scenario run (the JIT settles: callgrind.mjs, WARMUP_REQUESTS);
// instrumentation goes on, a further 500 warm it again; then --rounds times: counters zeroed, --requests requests, counters dumped. Prints
// each round's instructions per request, split into V8's collector, its compilers and the program (callgrind.mjs,
// countOf), and, with two sides, B against A (the least round of each, the median, round by round, the program's).
// One side takes about 8 minutes (3 rounds). The request log's flushes, every 200 ms, fall on ~6 calls instead of 500
// at this pace: --a-env/--b-env REQUEST_LOG_RETENTION_DAYS=0 leaves them out of a comparison of the request's path.
//   node bench/instructions.mjs --a DIR [--b DIR] [--scenario prepare2] [--warmup 30000] [--requests 2000] [--rounds 3]
//                               [--a-env K=V,…] [--b-env K=V,…] [--yardstick ../shared/bench]
// A side named `baseline` is the yardstick's own baseline (its baseline.mjs, envelope and request log on, on the
// service's pinned node): `--a baseline --b .` is the service's instructions per request against the baseline's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callgrindArgs, countOf, ROUND_REQUESTS, WARMUP_REQUESTS, warmThenInstrument } from './callgrind.mjs';
import { cliArg as arg, envOf, loadAmount, startSideOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const SCENARIO = arg('scenario', 'prepare2');
const WARMUP = Number(arg('warmup', String(WARMUP_REQUESTS)));
const REQUESTS = Number(arg('requests', String(ROUND_REQUESTS)));
const ROUNDS = Number(arg('rounds', '3'));
const sides = [
  ['A', arg('a', '.'), envOf(arg('a-env'))],
  ['B', arg('b', undefined), envOf(arg('b-env'))],
].filter(([, dir]) => dir !== undefined);

/** each side's rounds: instructions per request, in all and V8's collector, compilers and the rest (callgrind.mjs, countOf) */
const counts = {};
for (const [name, dir, env] of sides) {
  const work = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  // the service runs with HOST=127.0.0.1 (its listen address), which valgrind names its pipes after
  const HOST = '127.0.0.1';
  const started = Date.now();
  const wrapper = ['valgrind', ...callgrindArgs(work, ['--instr-atstart=no'])];
  const service = await startSideOnFreshDatabase(dir, {
    name: `instructions${name}`,
    env,
    wrapper,
    readyWithinMs: 600_000,
    yardstick: arg('yardstick', '../shared/bench'),
  });
  try {
    console.log(`${name} ${dir} ${JSON.stringify(env)}: ready in ${Math.round((Date.now() - started) / 1000)} s`);
    const scenario = (await yardstickScenarios(service.project))[SCENARIO];
    const origin = new URL(service.project.base).origin;
    const load = (amount) => loadAmount(origin, scenario, amount);
    await warmThenInstrument(work, service.proc.pid, HOST, load, WARMUP);
    counts[name] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const count = await countOf(work, service.proc.pid, () => load(REQUESTS), HOST);
      const per = Object.fromEntries(Object.entries(count).map(([kind, n]) => [kind, n / REQUESTS]));
      counts[name].push(per);
      const k = (x) => `${Math.round(x / 1000)}k`;
      console.log(
        `   ${SCENARIO} round ${round} ${name}: ${Math.round(per.total).toLocaleString('en')} instructions per request (gc ${k(per.gc)}, compilers ${k(per.compile)}, program ${k(per.program)})`,
      );
    }
  } finally {
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
// the least of the rounds: what a round adds beyond the requests (a collection, a compilation on V8's threads, the
// timers of a process that runs ~50x slower under callgrind) only ever adds, so the least is the steadiest figure
// (same build twice, 3 rounds each: 827k/889k/833k and 825k/909k/1,178k; least 827k and 825k)
const results = Object.fromEntries(Object.entries(counts).map(([name, rounds]) => [name, rounds.map((r) => r.total)]));
const programs = Object.fromEntries(Object.entries(counts).map(([name, rounds]) => [name, rounds.map((r) => r.program)]));
const least = (xs) => Math.min(...xs);
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const figure = (f) => Object.entries(results).map(([name, xs]) => `${name} ${Math.round(f(xs)).toLocaleString('en')}`);
const ratio = (f) => (results.B ? ` | B/A ${(f(results.B) / f(results.A)).toFixed(3)}` : '');
console.log(`${SCENARIO}: instructions per request, least of ${ROUNDS} rounds of ${REQUESTS}: ${figure(least).join(', ')}${ratio(least)}`);
console.log(`${SCENARIO}: median: ${figure(median).join(', ')}${ratio(median)}`);
// round k of B against round k of A: a process's rounds rise and fall in the same places (where its collections and
// compilations fall), so the pairs mostly vary less than either side (before/after the token statement's columns: B
// below A in all five pairs, 0.94–0.99, while each side's rounds spanned 0.63–1.27 M); not always: a heavy round
// one place later on one side makes two pairs read 0.62 and 1.67, hence the median
if (results.B) {
  const pairs = results.B.map((b, k) => b / results.A[k]);
  console.log(`${SCENARIO}: B/A round by round ${pairs.map((r) => r.toFixed(3)).join(' · ')}; median ${median(pairs).toFixed(3)}`);
}
// the program's share alone (no collector, no compiler): what the code of a request does, steadier than the total
const programFigure = Object.entries(programs).map(
  ([name, xs]) => `${name} ${Math.round(median(xs)).toLocaleString('en')} (${xs.map((x) => `${Math.round(x / 1000)}k`).join(' · ')})`,
);
console.log(
  `${SCENARIO}: program only, median: ${programFigure.join(', ')}${programs.B ? ` | B/A ${(median(programs.B) / median(programs.A)).toFixed(3)}` : ''}`,
);

// The service's instructions per request (issue 47), counted by valgrind's callgrind: a count of the work its
// process does, not a time, so it does not move with what else the machine runs. On a 2-core VM whose plain loop took
// 0.70–1.10 s from one run to the next, req/s and CPU µs per request could not tell a 5 % change from the noise; an
// instruction count can. It says nothing of PostgreSQL's side (its backends are other processes), nor of what an
// instruction costs (cache misses, system calls' kernel time): a change it finds still wants the yardstick on a quiet
// machine for its throughput.
//
// Each side (a built copy of the service, as bench/ab.mjs takes them) is started under callgrind with instrumentation
// off, on a fresh database; --warmup requests of the scenario run (the JIT settles: V8 still compiles ~800 functions
// in the service's first 14,000 prepares, ~2 per 1,000 after 60,000, by `--trace-opt` at full speed; a 2,000-request
// warm-up left 135–200k instructions per request in the compilers and the total 25–40 % high); instrumentation goes
// on, a further 500 warm it again; then --rounds times: counters zeroed, --requests requests, counters dumped. Prints
// each round's instructions per request, split into V8's collector, its compilers and the program (callgrind.mjs,
// countOf), and, with two sides, B against A (the least round of each, the median, round by round, the program's).
// One side takes about 8 minutes (3 rounds). The request log's flushes, every 200 ms, fall on ~6 calls instead of 500
// at this pace: --a-env/--b-env REQUEST_LOG_RETENTION_DAYS=0 leaves them out of a comparison of the request's path.
//   node bench/instructions.mjs --a DIR [--b DIR] [--scenario prepare2] [--warmup 30000] [--requests 2000] [--rounds 3]
//                               [--a-env K=V,…] [--b-env K=V,…] [--yardstick ../shared/bench]
// A side named `baseline` is the yardstick's own baseline (its baseline.mjs, envelope and request log on, on the
// service's pinned node): `--a baseline --b .` is the service's instructions per request against the baseline's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { callgrindArgs, countOf, vgdb } from './callgrind.mjs';
import { cliArg as arg, envOf, serviceNode, startBaselineOnFreshDatabase, startServiceOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const SCENARIO = arg('scenario', 'prepare2');
const WARMUP = Number(arg('warmup', '30000'));
const REQUESTS = Number(arg('requests', '2000'));
const ROUNDS = Number(arg('rounds', '3'));
const sides = [
  ['A', arg('a', '.'), envOf(arg('a-env'))],
  ['B', arg('b', undefined), envOf(arg('b-env'))],
].filter(([, dir]) => dir !== undefined);

/** `amount` requests of the scenario over 4 connections; throws unless every one answered its status. */
async function load(origin, { request, status }, amount) {
  const statuses = {};
  await autocannon({
    url: origin,
    connections: 4,
    amount,
    timeout: 60,
    requests: [request],
    setupClient: (client) => client.on('response', (code) => (statuses[code] = (statuses[code] ?? 0) + 1)),
  });
  const others = Object.entries(statuses).filter(([code]) => Number(code) !== status);
  if (others.length > 0 || (statuses[status] ?? 0) < amount) {
    throw new Error(`${amount} requests answered ${JSON.stringify(statuses)}, not ${amount} × ${status}`);
  }
}

const results = {};
/** each round's instructions per request less V8's collector and compilers (callgrind.mjs, countOf) */
const programs = {};
for (const [name, dir, env] of sides) {
  const work = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  // the service runs with HOST=127.0.0.1 (its listen address), which valgrind names its pipes after
  const HOST = '127.0.0.1';
  const started = Date.now();
  const wrapper = ['valgrind', ...callgrindArgs(work, ['--instr-atstart=no'])];
  const service =
    dir === 'baseline'
      ? await startBaselineOnFreshDatabase({
          yardstick: resolve(arg('yardstick', '../shared/bench')),
          node: resolve(serviceNode('.')),
          wrapper,
          readyWithinMs: 600_000,
        })
      : await startServiceOnFreshDatabase({ dir: resolve(dir), name: `instructions${name}`, env, wrapper, readyWithinMs: 600_000 });
  try {
    console.log(`${name} ${dir} ${JSON.stringify(env)}: ready in ${Math.round((Date.now() - started) / 1000)} s`);
    const scenario = (await yardstickScenarios(service.project))[SCENARIO];
    const origin = new URL(service.project.base).origin;
    await load(origin, scenario, WARMUP);
    vgdb(work, service.proc.pid, 'instrumentation on', HOST);
    await load(origin, scenario, 500);
    results[name] = [];
    programs[name] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const count = await countOf(work, service.proc.pid, () => load(origin, scenario, REQUESTS), HOST);
      const k = (x) => `${Math.round(x / REQUESTS / 1000)}k`;
      results[name].push(count.total / REQUESTS);
      programs[name].push(count.program / REQUESTS);
      console.log(
        `   ${SCENARIO} round ${round} ${name}: ${Math.round(count.total / REQUESTS).toLocaleString('en')} instructions per request (gc ${k(count.gc)}, compilers ${k(count.compile)}, program ${k(count.program)})`,
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

// A CPU profile of the service under one scenario of the yardstick (issue 28: "profile first").
// Starts the built service as `npm start` runs it, with --cpu-prof, on a fresh PostgreSQL database;
// warms up, loads one scenario, stops the service (the profile is written at exit) and prints the
// self time per function and per package, largest first.
//   node bench/profile.mjs [--scenario prepare2|prepare500|create|replay|posting] [--duration 8] [--out DIR] [--rate N] [--cpu-only] [--trace-gc]
// --trace-gc: no profiler; the service runs with --trace-gc and the collections during the measured run are summed up
// by kind (count, total and longest pause), beside the latency percentiles: where a latency tail meets the collector.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArg as arg, envOf, scenarioLoad, startServiceOnFreshDatabase } from './sandbox-project.mjs';

const SCENARIO = arg('scenario', 'prepare2');
const DURATION = Number(arg('duration', '8'));
const OUT = arg('out', mkdtempSync(join(tmpdir(), 'profile-')));
// --cpu-only: no profiler; prints the service's CPU time per request over the measured run (utime + stime)
const TRACE_GC = process.argv.includes('--trace-gc');
const CPU_ONLY = process.argv.includes('--cpu-only') || TRACE_GC;
// --rate N: a fixed load of N requests/s instead of as many as 16 connections get through (the CPU per request
// of a machine that is not saturated: no time is spent waiting for PostgreSQL or the load generator to get a core)
const RATE = arg('rate', undefined);
// [user, system] CPU ticks (10 ms) of a process
const cpuTicks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return [Number(f[11]), Number(f[12])];
};
const {
  proc: service,
  project,
  stop,
} = await startServiceOnFreshDatabase({
  name: 'profile',
  nodeArgs: TRACE_GC ? ['--trace-gc'] : CPU_ONLY ? [] : ['--cpu-prof', '--cpu-prof-dir', OUT],
  stdout: TRACE_GC ? 'pipe' : 'ignore',
  // --env K=V,K=V: the service's environment besides the yardstick's (e.g. REQUEST_LOG_RETENTION_DAYS=0)
  env: envOf(arg('env')),
});
// --trace-gc lines: "[pid:0x…]   12345 ms: Scavenge 45.2 (60.1) -> 30.1 (60.1) MB, pooled: 0 MB, 3.21 / 0.00 ms …"
let gcLog = '';
let measuring = false;
service.stdout?.on('data', (d) => {
  if (measuring) gcLog += d;
});
try {
  const load = await scenarioLoad(project, SCENARIO);
  await load(3);
  const ticks = cpuTicks(service.pid);
  measuring = true;
  const r = await load(DURATION, RATE);
  const [user, system] = cpuTicks(service.pid).map((t, i) => ((t - ticks[i]) * 10_000) / r.requests.total);
  measuring = false;
  process.stdout.write(
    `${SCENARIO}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, non-2xx ${r.non2xx}, service CPU ${(user + system).toFixed(0)} µs/request (user ${user.toFixed(0)}, system ${system.toFixed(0)})\n`,
  );
  if (TRACE_GC) {
    const kinds = new Map();
    for (const m of gcLog.matchAll(/ms: ([A-Za-z-]+(?: \(reduce\))?)[^\n]*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/g)) {
      const k = kinds.get(m[1]) ?? { n: 0, total: 0, max: 0 };
      const ms = Number(m[2]);
      k.n++;
      k.total += ms;
      k.max = Math.max(k.max, ms);
      kinds.set(m[1], k);
    }
    if (process.argv.includes('--gc-lines'))
      process.stdout.write(
        gcLog
          .split('\n')
          .filter((l) => l.includes(' ms: '))
          .slice(0, 12)
          .join('\n') + '\n',
      );
    for (const [kind, k] of kinds)
      process.stdout.write(
        `  ${kind}: ${k.n} collections, ${k.total.toFixed(0)} ms in ${DURATION} s (${(k.total / DURATION / 10).toFixed(1)} % of the time), mean ${(k.total / k.n).toFixed(1)} ms, longest ${k.max.toFixed(1)} ms\n`,
      );
  }
} finally {
  await stop(); // the profile is written at exit
}
if (CPU_ONLY) process.exit(0);
const file = readdirSync(OUT)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(OUT, f))
  .at(-1);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const fn = new Map();
const pkg = new Map();
let total = 0;
let idle = 0;
const where = (url) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/src/')) return `src/${url.split('/dist/src/')[1]}`;
  if (url.startsWith('node:')) return 'node:';
  return url || '(native)';
};
for (const [id, us] of dt) {
  const n = byId.get(id);
  const c = n.callFrame;
  if (c.functionName === '(idle)' || c.functionName === '(program)') {
    idle += us;
    if (c.functionName === '(idle)') continue;
  }
  total += us;
  const k = `${c.functionName || '(anon)'} ${where(c.url)}:${c.lineNumber + 1}`;
  fn.set(k, (fn.get(k) ?? 0) + us);
  const p = c.url ? where(c.url) : c.functionName;
  pkg.set(p, (pkg.get(p) ?? 0) + us);
}
// inclusive time per function: a sample counts once for every distinct function on its stack
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const frameKey = (n) => {
  const c = n.callFrame;
  return `${c.functionName || '(anon)'} ${where(c.url)}:${c.lineNumber + 1}`;
};
const incl = new Map();
for (const [id, us] of dt) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const n = byId.get(at);
    if (n.callFrame.functionName === '(idle)') break;
    const k = frameKey(n);
    if (!seen.has(k)) {
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + us);
    }
  }
}
const top = (m, n) =>
  [...m]
    .sort((x, y) => y[1] - x[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
process.stdout.write(
  `profile ${file}\nbusy ${(total / 1e6).toFixed(2)} s\n-- by package --\n${top(pkg, 25)}\n-- by function --\n${top(fn, 45)}\n-- inclusive (src and packages) --\n${top(new Map([...incl].filter(([k]) => !k.includes(' node:') && !k.startsWith('(root)'))), Number(arg('inclusive', '70')))}\n`,
);

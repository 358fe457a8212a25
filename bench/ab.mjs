// A/B of two builds of the service on one scenario, in one sitting: both started as `npm start` runs them,
// each on a fresh PostgreSQL database, measured in alternating rounds (A B A B …) so that the machine's
// drift falls on both; prints median req/s, p50, p99, the service's CPU per request and its PostgreSQL
// backends' CPU per request (the processes serving its database) and this process's (the load generator's) of each,
// and at the end each side's peak RSS.
//   node bench/ab.mjs --a DIR --b DIR [--scenario prepare2|prepare500|create|replay|posting|entries|events[,…]] [--rounds 4] [--duration 8]
//                     [--a-env K=V,K=V] [--b-env K=V,…] [--rate N]
// The same build twice with another environment on one side is the A/B of a setting, e.g. the request log off
// against on: `--a . --b . --a-env REQUEST_LOG_RETENTION_DAYS=0`.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { cliArg as arg, envOf, READ_SCENARIOS, startServiceOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const SIDES = { A: { dir: resolve(arg('a', '.')), env: envOf(arg('a-env')) }, B: { dir: resolve(arg('b', '.')), env: envOf(arg('b-env')) } };
const SCENARIOS = arg('scenario', 'prepare2').split(',');
const ROUNDS = Number(arg('rounds', '4'));
const DURATION = Number(arg('duration', '8'));
// --rate N: both sides at the same fixed load (N requests/s over the 16 connections) instead of as many as they get
// through: their CPU per request is then compared at one rate (at saturation a slower side also loses the batching
// of a faster one: fewer answers per event-loop turn and per system call), and req/s says only whether both kept up
const RATE = arg('rate', undefined);
const LOAD = RATE ? { overallRate: Number(RATE) } : {};
const ticksOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const cpuTicks = (pid) => ticksOf(pid);
/** CPU ticks of the PostgreSQL backends connected to one database (their process title names it); a backend gone in between loses its ticks */
const backendTicks = (database) => {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.startsWith('postgres: ') && cmd.includes(` ${database} `)) sum += ticksOf(pid);
    } catch {
      /* gone */
    }
  }
  return sum;
};
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function start(name, { dir, env }) {
  const { proc, project, database, stop } = await startServiceOnFreshDatabase({ dir, name: `ab_${name}`, env });
  try {
    return {
      name,
      proc,
      database,
      stop,
      origin: new URL(project.base).origin,
      scenarios: await yardstickScenarios(project, { reads: SCENARIOS.some((n) => READ_SCENARIOS.includes(n)) }),
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

const systems = [];
try {
  for (const [name, side] of Object.entries(SIDES)) systems.push(await start(name, side));
  process.stdout.write(`A ${SIDES.A.dir} ${JSON.stringify(SIDES.A.env)} | B ${SIDES.B.dir} ${JSON.stringify(SIDES.B.env)}\n`);
  for (const scenario of SCENARIOS) {
    const out = { A: [], B: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const sys of round % 2 ? [...systems].reverse() : systems) {
        const { request: req, status } = sys.scenarios[scenario];
        await autocannon({ url: sys.origin, connections: 16, duration: 2, requests: [req] });
        const t = cpuTicks(sys.proc.pid);
        const pg = backendTicks(sys.database);
        const load = process.cpuUsage();
        const r = await autocannon({ url: sys.origin, connections: 16, duration: DURATION, requests: [req], ...LOAD });
        const ok = r.statusCodeStats?.[String(status)]?.count ?? 0;
        if (ok !== r.requests.total) process.stderr.write(`!! ${sys.name} ${scenario}: ${r.requests.total - ok} answers not ${status}\n`);
        const row = {
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          cpu: ((cpuTicks(sys.proc.pid) - t) * 10_000) / r.requests.total,
          pg: ((backendTicks(sys.database) - pg) * 10_000) / r.requests.total,
          // this process is the load generator: what sending the requests and parsing the answers cost it
          load: (({ user, system }) => (user + system) / r.requests.total)(process.cpuUsage(load)),
        };
        out[sys.name].push(row);
        process.stderr.write(
          `   ${scenario} round ${round + 1} ${sys.name}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms, CPU ${row.cpu.toFixed(0)} µs, PostgreSQL ${row.pg.toFixed(0)} µs, load generator ${row.load.toFixed(0)} µs\n`,
        );
      }
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    const f = (xs) =>
      `${m(xs, 'rps').toFixed(0)} req/s, p50 ${m(xs, 'p50')} ms, p99 ${m(xs, 'p99')} ms, CPU ${m(xs, 'cpu').toFixed(0)} µs/req, PostgreSQL ${m(xs, 'pg').toFixed(0)} µs/req, load generator ${m(xs, 'load').toFixed(0)} µs/req`;
    process.stdout.write(
      `${scenario}: A ${f(out.A)} | B ${f(out.B)} | B/A req/s ${(m(out.B, 'rps') / m(out.A, 'rps')).toFixed(3)}, p99 ${(m(out.B, 'p99') / m(out.A, 'p99')).toFixed(2)}\n`,
    );
  }
  // each side's peak RSS over the whole sitting (the memory tricks of ADR 13 are judged by it)
  const peak = (pid) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  process.stdout.write(`peak RSS: ${systems.map((sys) => `${sys.name} ${peak(sys.proc.pid)} MB`).join(', ')}\n`);
} finally {
  for (const sys of systems) await sys.stop();
}

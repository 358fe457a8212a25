// A/B of two builds of the service on one scenario, in one sitting: both started as `npm start` runs them,
// each on a fresh PostgreSQL database, measured in alternating rounds (A B A B …) so that the machine's
// drift falls on both; prints median req/s, p99 and the service's CPU per request of each.
//   node bench/ab.mjs --a DIR --b DIR [--scenario prepare2|prepare500|create|replay|posting] [--rounds 4] [--duration 8]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { startServiceOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i >= 0 ? process.argv[i + 1] : fallback; };
const DIRS = { A: resolve(arg('a', '.')), B: resolve(arg('b', '.')) };
const SCENARIOS = arg('scenario', 'prepare2').split(',');
const ROUNDS = Number(arg('rounds', '4'));
const DURATION = Number(arg('duration', '8'));
const cpuTicks = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

async function start(name, dir) {
  const { proc, project, stop } = await startServiceOnFreshDatabase({ dir, name: `ab_${name}` });
  try {
    return { name, proc, stop, origin: new URL(project.base).origin, scenarios: await yardstickScenarios(project) };
  } catch (err) {
    await stop();
    throw err;
  }
}

const systems = [];
try {
  for (const [name, dir] of Object.entries(DIRS)) systems.push(await start(name, dir));
  for (const scenario of SCENARIOS) {
    const out = { A: [], B: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const sys of round % 2 ? [...systems].reverse() : systems) {
        const { request: req, status } = sys.scenarios[scenario];
        await autocannon({ url: sys.origin, connections: 16, duration: 2, requests: [req] });
        const t = cpuTicks(sys.proc.pid);
        const r = await autocannon({ url: sys.origin, connections: 16, duration: DURATION, requests: [req] });
        const ok = r.statusCodeStats?.[String(status)]?.count ?? 0;
        if (ok !== r.requests.total) process.stderr.write(`!! ${sys.name} ${scenario}: ${r.requests.total - ok} answers not ${status}\n`);
        out[sys.name].push({ rps: r.requests.average, p99: r.latency.p99, cpu: ((cpuTicks(sys.proc.pid) - t) * 10_000) / r.requests.total });
      }
    }
    const f = (xs) => `${median(xs.map((x) => x.rps)).toFixed(0)} req/s, p99 ${median(xs.map((x) => x.p99))} ms, CPU ${median(xs.map((x) => x.cpu)).toFixed(0)} µs/req`;
    process.stdout.write(`${scenario}: A ${f(out.A)} | B ${f(out.B)} | B/A req/s ${(median(out.B.map((x) => x.rps)) / median(out.A.map((x) => x.rps))).toFixed(3)}\n`);
  }
} finally {
  for (const sys of systems) await sys.stop();
}

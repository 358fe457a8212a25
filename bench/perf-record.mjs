// Where the service's CPU goes by CPU time, not wall time (issue 47): V8's --cpu-prof samples on a wall clock, so a
// process preempted inside a send system call (it woke PostgreSQL on a 2-core machine) shows as time in `writev`.
// Linux `perf` on the cpu-clock event samples only while the process runs; `--perf-basic-prof` names the JIT's
// functions (V8 writes its log, v8.log, into --out, not the working directory). Starts the service as `npm start` runs it on a fresh database, loads one yardstick scenario (16
// connections, as many as get through, or --rate N), records, and prints perf's report by DSO and by symbol.
//   node bench/perf-record.mjs [--scenario prepare2] [--duration 8] [--rate N] [--out DIR]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArg as arg, scenarioLoad, startServiceOnFreshDatabase } from './sandbox-project.mjs';

const SCENARIO = arg('scenario', 'prepare2');
const DURATION = Number(arg('duration', '8'));
const RATE = arg('rate', undefined);
const OUT = arg('out', mkdtempSync(join(tmpdir(), 'perf-')));
mkdirSync(OUT, { recursive: true });
const { proc, project, stop } = await startServiceOnFreshDatabase({
  name: 'perf',
  nodeArgs: ['--perf-basic-prof-only-functions', '--no-logfile-per-isolate', `--logfile=${join(OUT, 'v8.log')}`],
});
try {
  const load = await scenarioLoad(project, SCENARIO);
  await load(3);
  const data = join(OUT, 'perf.data');
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '1999', '-g', '-o', data, '-p', String(proc.pid)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const r = await load(DURATION, RATE);
  perf.kill('SIGINT');
  await new Promise((r) => perf.once('exit', r));
  console.log(`${SCENARIO}: ${(r.requests.total / DURATION).toFixed(0)} req/s, non-2xx ${r.non2xx}; perf data ${data}`);
  const report = (sort) =>
    execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', sort, '--stdio', '-g', 'none', '--percent-limit', '0.4'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
  console.log(report('dso'));
  console.log(report('sym'));
} finally {
  await stop();
}

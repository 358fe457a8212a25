// Syscalls per request (issue 47): the service as `npm start` runs it, under the yardstick's 2-line prepare at
// a fixed rate, with `strace -c -f` attached for the measured window; prints strace's table and calls per request.
//   node bench/syscalls.mjs [--scenario prepare2|replay|create] [--rate 1000] [--duration 5]
import { spawn } from 'node:child_process';
import { cliArg as arg, scenarioLoad, startServiceOnFreshDatabase } from './sandbox-project.mjs';

const SCENARIO = arg('scenario', 'prepare2');
const RATE = Number(arg('rate', '1000'));
const DURATION = Number(arg('duration', '5'));
const { proc, project, stop } = await startServiceOnFreshDatabase({ name: 'syscalls' });
try {
  const load = await scenarioLoad(project, SCENARIO);
  await load(2, RATE);
  const strace = spawn('strace', ['-c', '-f', '-p', String(proc.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let table = '';
  strace.stderr.on('data', (d) => (table += d));
  await new Promise((r) => setTimeout(r, 500));
  const r = await load(DURATION, RATE);
  strace.kill('SIGINT');
  await new Promise((r) => strace.once('exit', r));
  const answered = r.requests.total;
  console.log(`${SCENARIO}: ${answered} answers at ${RATE}/s, non-2xx ${r.non2xx}`);
  for (const line of table.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    console.log(m ? `${line}    ${(Number(m[1]) / answered).toFixed(2)} per request` : line);
  }
} finally {
  await stop();
}

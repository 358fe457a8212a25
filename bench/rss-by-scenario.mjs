// Peak RSS of the service after each yardstick scenario in turn (issue 28's RSS figure): where the peak is reached.
//   node bench/rss-by-scenario.mjs [--duration S]        EXTRA_NODE_FLAGS="…" adds node flags before the start script's
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startServiceOnFreshDatabase, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const DURATION = Number(arg('duration', '5'));
const mem = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (k) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]) / 1024);
  return `RSS ${mb('VmRSS')} MB, peak ${mb('VmHWM')} MB (anon ${mb('RssAnon')}, file ${mb('RssFile')})`;
};

const { proc, project, stop } = await startServiceOnFreshDatabase({ name: 'rss', nodeArgs: (process.env.EXTRA_NODE_FLAGS ?? '').split(' ').filter(Boolean) });
try {
  console.log(`ready: ${mem(proc.pid)}`);
  const scenarios = await yardstickScenarios(project);
  for (const name of ['prepare2', 'prepare500', 'create', 'replay', 'posting']) {
    const r = await autocannon({ url: new URL(project.base).origin, connections: 16, duration: DURATION, requests: [scenarios[name].request] });
    console.log(`${name.padEnd(10)} ${String(Math.round(r.requests.average)).padStart(6)} req/s: ${mem(proc.pid)}`);
  }
} finally {
  await stop();
}

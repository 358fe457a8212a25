// The hot paths on a filled database beside an empty one (issue 25, item 3): the shared yardstick
// (../shared/bench/run) always creates a fresh database, so this runs its scenarios by hand on the
// databases given: S1 and S2 prepare (2 and 500 lines), S3 product create, S4 product replay, S5 final
// posting (autocannon, 16 connections, a 2 s warm-up before each run, a CHECKPOINT before and a VACUUM
// (ANALYZE) after each writing scenario, as the yardstick does), each system started as `npm start` runs
// it, alternating empty / filled per round.
//   node bench/volume-compare.mjs --empty postgres://…/empty --filled postgres://…/filled [--duration 5] [--rounds 2]
// Both databases must be migrated; the filled one by bench/fill-volume.mjs. Loopback only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, readySandboxProject, serviceNode, startScriptArgs, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const pg = require('pg');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const systems = { empty: arg('empty'), filled: arg('filled') };
const DURATION = Number(arg('duration', '5'));
const ROUNDS = Number(arg('rounds', '2'));
// --only S2,S5: just those scenarios (by their ids)
const ONLY = arg('only', '').split(',').filter(Boolean);
if (!systems.empty || !systems.filled) {
  process.stderr.write('usage: node bench/volume-compare.mjs --empty URL --filled URL [--duration 5] [--rounds 2]\n');
  process.exit(2);
}
const startArgs = startScriptArgs('package.json');

async function start(name, url) {
  const [port, consolePort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), `volume-${name}-`));
  const key = `ck_${randomBytes(16).toString('hex')}`;
  const proc = spawn(serviceNode(), startArgs, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CONSOLE_PORT: String(consolePort),
      CONSOLE_API_KEY: key,
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const project = await readySandboxProject(port, consolePort, key, name);
  const scenarios = await yardstickScenarios(project);
  return {
    name,
    proc,
    dataDir,
    url,
    origin: new URL(project.base).origin,
    scenarios: {
      'S1 prepare, 2 lines': scenarios.prepare2,
      'S2 prepare, 500 lines': scenarios.prepare500,
      'S3 product create': scenarios.create,
      'S4 product replay': scenarios.replay,
      'S5 final posting': scenarios.posting,
    },
  };
}

async function psql(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const results = {};
const running = [];
try {
  for (const [name, url] of Object.entries(systems)) running.push(await start(name, url));
  for (const scenario of Object.keys(running[0].scenarios).filter((s) => ONLY.length === 0 || ONLY.includes(s.split(' ')[0]))) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const sys of running) {
        const { request, status } = sys.scenarios[scenario];
        const load = { url: sys.origin, connections: 16, requests: [request] };
        await psql(sys.url, 'CHECKPOINT');
        await autocannon({ ...load, duration: 2 });
        const r = await autocannon({ ...load, duration: DURATION });
        const ok = r.statusCodeStats?.[String(status)]?.count ?? 0;
        (results[`${scenario}|${sys.name}`] ??= []).push({ rps: r.requests.average, p99: r.latency.p99, bad: r.requests.total - ok + r.errors + r.timeouts });
      }
    }
    if (!scenario.includes('prepare')) for (const sys of running) await psql(sys.url, 'VACUUM (ANALYZE)');
  }
} finally {
  for (const sys of running) {
    const exited = new Promise((r) => sys.proc.once('exit', r));
    sys.proc.kill('SIGTERM');
    await exited;
    rmSync(sys.dataDir, { recursive: true, force: true });
  }
}
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
process.stdout.write(
  `| scenario | empty req/s | filled req/s | ratio | empty p99 ms | filled p99 ms | ratio | not as expected |\n|---|---:|---:|---:|---:|---:|---:|---:|\n`,
);
for (const scenario of Object.keys(running[0].scenarios).filter((s) => results[`${s}|empty`])) {
  const e = results[`${scenario}|empty`],
    f = results[`${scenario}|filled`];
  const [er, fr, ep, fp] = [median(e.map((x) => x.rps)), median(f.map((x) => x.rps)), median(e.map((x) => x.p99)), median(f.map((x) => x.p99))];
  const bad = [...e, ...f].reduce((n, x) => n + x.bad, 0);
  process.stdout.write(
    `| ${scenario} | ${er.toFixed(0)} | ${fr.toFixed(0)} | ${(fr / er).toFixed(2)}× | ${ep} | ${fp} | ${(fp / ep).toFixed(2)}× | ${bad} |\n`,
  );
}

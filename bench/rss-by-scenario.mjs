// Peak RSS of the service after each yardstick scenario in turn (issue 28's RSS figure): where the peak is reached.
//   node bench/rss-by-scenario.mjs [--duration S]
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, readySandboxProject, startScriptArgs, yardstickScenarios } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i >= 0 ? process.argv[i + 1] : fallback; };
const DURATION = Number(arg('duration', '5'));
const PG = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432';
const DB = `bench_rss_${process.pid}`;
const psql = (sql) => execFileSync('psql', [`${PG}/postgres`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();
const mem = (pid) => { const s = readFileSync(`/proc/${pid}/status`, 'utf8'); const kb = (k) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]) / 1024); return `RSS ${kb('VmRSS')} MB, peak ${kb('VmHWM')} MB (anon ${kb('RssAnon')}, file ${kb('RssFile')})`; };

psql(`CREATE DATABASE ${DB}`);
const [port, consolePort] = [await freePort(), await freePort()];
const dataDir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
const key = `ck_${randomBytes(16).toString('hex')}`;
const service = spawn(process.execPath, [...(process.env.EXTRA_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...startScriptArgs('package.json')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CONSOLE_PORT: String(consolePort), CONSOLE_API_KEY: key, DATABASE_URL: `${PG}/${DB}`,
    LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '1000000000', DATA_DIR: dataDir },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  const project = await readySandboxProject(port, consolePort, key);
  console.log(`ready: ${mem(service.pid)}`);
  const scenarios = await yardstickScenarios(project);
  for (const name of ['prepare2', 'prepare500', 'create', 'replay', 'posting']) {
    const r = await autocannon({ url: new URL(project.base).origin, connections: 16, duration: DURATION, requests: [scenarios[name].request] });
    console.log(`${name.padEnd(10)} ${String(Math.round(r.requests.average)).padStart(6)} req/s: ${mem(service.pid)}`);
  }
} finally {
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  psql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}

import { spawn, execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// Shared by the bench scripts that start the service themselves: wait until it is ready, provision a
// sandbox project through the console API, and hand back what a load generator needs.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const autocannon = createRequire(import.meta.url)('autocannon');

/** The value after `--name` on the command line, or `fallback`. */
export const cliArg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

/** `K=V,K=V` (a command line's environment for a service) as an object. */
export const envOf = (text) =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

/**
 * A load of one yardstick scenario on a sandbox project: `(seconds, rate?) => autocannon's result`, 16 connections,
 * as many requests as get through, or `rate` a second.
 */
export async function scenarioLoad(project, scenario) {
  const { request } = (await yardstickScenarios(project))[scenario];
  const origin = new URL(project.base).origin;
  return (duration, rate) => autocannon({ url: origin, connections: 16, duration, requests: [request], ...(rate ? { overallRate: Number(rate) } : {}) });
}

/** The base URL, request headers and first two account ids of a new sandbox project, once the service is ready (120 s, or `readyWithinMs`). */
export async function readySandboxProject(port, consolePort, consoleKey, name = 'service', readyWithinMs = 120_000) {
  for (let i = 0; !(await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.ok; i++) {
    if (i * 100 > readyWithinMs) throw new Error(`${name} not ready within ${readyWithinMs / 1000} s`);
    await sleep(100);
  }
  const project = await (
    await fetch(`http://127.0.0.1:${consolePort}/console/v1/sandbox/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${consoleKey}`, 'content-type': 'application/json' },
      body: '{}',
    })
  ).json();
  return projectOf(`http://127.0.0.1:${port}/api/partner/sandbox/v1`, project.token, project.accounts);
}

/** A sandbox project as the load generators take it: its base, request headers and first two account ids. */
const projectOf = (base, token, accounts) => {
  const [a, b] = accounts.map((x) => x.id);
  return { base, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, accounts: [a, b] };
};

/** `amount` requests of a yardstick scenario at `origin` over 4 connections, as fast as answered; throws unless every one answered its status. */
export async function loadAmount(origin, { request, status }, amount) {
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
    throw new Error(`${amount} requests to ${origin} answered ${JSON.stringify(statuses)}, not ${amount} × ${status}`);
  }
}

/** The node flags and entry file of package.json's `start` script (`node [flags] FILE`), as `npm start` runs it. */
export function startScriptArgs(packageJson = 'package.json') {
  const words = JSON.parse(readFileSync(packageJson, 'utf8')).scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`the start script is not \`node [flags] FILE\`: ${words.join(' ')}`);
  return words.slice(1);
}

/**
 * The node a project's service runs on: its pinned one (`node_modules/.bin/node`, as the yardstick starts it),
 * not this script's, which may be another version (the machine's `node` here is v20; the pin is v24, and their
 * figures differ by up to 2×).
 */
export const serviceNode = (dir = '.') => {
  const pinned = join(dir, 'node_modules', '.bin', 'node');
  return existsSync(pinned) ? pinned : process.execPath;
};

/** A free TCP port on 127.0.0.1. */
export const freePort = () =>
  new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

/** The commit-ordered reads (ADR 0006): the first page (20) of `GET {base}/journal/entries` and of `GET {base}/events`. */
const READ_PATHS = { entries: '/journal/entries', events: '/events' };
export const READ_SCENARIOS = Object.keys(READ_PATHS);

/**
 * The yardstick's five scenarios against one sandbox project (readySandboxProject's answer), as autocannon
 * requests with the status each must answer: prepare2 and prepare500 (S1, S2), create (S3, a new key and code
 * per request), replay (S4, one key created once here) and posting (S5, a new key per request). With `reads`,
 * the READ_SCENARIOS too, after 20 postings made here.
 */
export async function yardstickScenarios({ base, headers, accounts: [a, b] }, { reads = false } = {}) {
  const line = (i) => (i % 2 === 0 ? { account_id: a, debit_minor: 100 } : { account_id: b, credit_minor: 100 });
  const journal = (n) => JSON.stringify({ posting_date: '2026-06-15', lines: Array.from({ length: n }, (_, i) => line(i)) });
  const replayKey = randomUUID();
  const replayBody = JSON.stringify({ code: `R-${replayKey.slice(0, 8)}`, name: 'Replay' });
  const first = await fetch(`${base}/products`, { method: 'POST', headers: { ...headers, 'idempotency-key': replayKey }, body: replayBody });
  if (first.status !== 201) throw new Error(`the replay scenario's first create answered ${first.status}`);
  const path = new URL(base).pathname;
  const post = (p, status, rest) => ({ request: { method: 'POST', path: `${path}${p}`, headers, ...rest }, status });
  for (let i = 0; reads && i < 20; i++) {
    const res = await fetch(`${base}/journal`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: journal(2) });
    if (res.status !== 201) throw new Error(`a posting for the read scenarios answered ${res.status}`);
  }
  const get = (p) => ({ request: { method: 'GET', path: `${path}${p}`, headers: { authorization: headers.authorization } }, status: 200 });
  return {
    ...(reads ? Object.fromEntries(Object.entries(READ_PATHS).map(([name, p]) => [name, get(p)])) : {}),
    prepare2: post('/journal/prepare', 200, { body: journal(2) }),
    prepare500: post('/journal/prepare', 200, { body: journal(500) }),
    create: post('/products', 201, {
      setupRequest: (req) => {
        const k = randomUUID();
        req.headers = { ...headers, 'idempotency-key': k };
        req.body = JSON.stringify({ code: `C-${k.slice(0, 18)}`, name: 'Vare' });
        return req;
      },
    }),
    replay: post('/products', 201, { headers: { ...headers, 'idempotency-key': replayKey }, body: replayBody }),
    posting: post('/journal', 201, {
      body: journal(2),
      setupRequest: (req) => {
        req.headers = { ...headers, 'idempotency-key': randomUUID() };
        return req;
      },
    }),
  };
}

const PG = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432';
const psql = (sql) => execFileSync('psql', [`${PG}/postgres`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();

/**
 * The built service in `dir`, started as `npm start` runs it (`nodeArgs`, then its start script's node flags
 * and entry file) on a fresh PostgreSQL database ($BENCH_PG_URL) with the yardstick's environment, and a
 * sandbox project once it is ready; `databaseUrl` is its database. `wrapper` (a command and its arguments, e.g.
 * valgrind's) runs node, and `readyWithinMs` bounds the wait for it. `stop()` ends it, drops that database and
 * removes its DATA_DIR.
 */
export async function startServiceOnFreshDatabase({
  dir = '.',
  name = 'service',
  nodeArgs = [],
  env = {},
  stdout = 'ignore',
  wrapper = [],
  readyWithinMs = 120_000,
} = {}) {
  const db = `bench_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${process.pid}`;
  psql(`CREATE DATABASE ${db}`);
  const [port, consolePort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const key = `ck_${randomBytes(16).toString('hex')}`;
  const command = [...wrapper, serviceNode(dir), ...nodeArgs, ...startScriptArgs(join(dir, 'package.json'))];
  const proc = spawn(command[0], command.slice(1), {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CONSOLE_PORT: String(consolePort),
      CONSOLE_API_KEY: key,
      DATABASE_URL: `${PG}/${db}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise((r) => proc.once('exit', r));
  const stop = async () => {
    proc.kill('SIGTERM');
    await exited;
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return { proc, project: await readySandboxProject(port, consolePort, key, name, readyWithinMs), databaseUrl: `${PG}/${db}`, database: db, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The yardstick's hand-written baseline (`yardstick`/baseline.mjs: node:http + pg, its envelope and request log on,
 * as ../shared/bench/run starts it) on `node`, on a fresh PostgreSQL database it seeds itself; `project` is in
 * readySandboxProject's form, for yardstickScenarios. `wrapper` and `readyWithinMs` as for the service.
 */
export async function startBaselineOnFreshDatabase({ yardstick, node = process.execPath, nodeArgs = [], wrapper = [], readyWithinMs = 30_000 }) {
  const db = `bench_baseline_${process.pid}`;
  psql(`CREATE DATABASE ${db}`);
  const command = [...wrapper, node, ...nodeArgs, join(yardstick, 'baseline.mjs')];
  const proc = spawn(command[0], command.slice(1), {
    cwd: yardstick,
    env: { ...process.env, DATABASE_URL: `${PG}/${db}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => proc.once('exit', r));
  const stop = async () => {
    proc.kill('SIGTERM');
    await exited;
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  };
  try {
    let out = '';
    const info = await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`the baseline did not print its address within ${readyWithinMs / 1000} s`)), readyWithinMs);
      proc.stdout.on('data', (d) => {
        out += String(d);
        const line = out.split('\n').find((l) => l.includes('"ready":true'));
        if (line) {
          clearTimeout(timer);
          ok(JSON.parse(line));
        }
      });
      void exited.then((code) => fail(new Error(`the baseline exited (${code}) before it was ready`)));
    });
    return { proc, project: projectOf(info.base_url, info.token, info.accounts), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * One side of a comparison on a fresh database: `side` is a built copy of the service (a folder), or `baseline`, the
 * yardstick's own (`yardstick`/baseline.mjs on the service's pinned node). `name` names the service's database.
 */
export function startSideOnFreshDatabase(side, { name, env = {}, nodeArgs = [], wrapper = [], readyWithinMs, yardstick = '../shared/bench' }) {
  return side === 'baseline'
    ? startBaselineOnFreshDatabase({ yardstick: resolve(yardstick), node: resolve(serviceNode('.')), nodeArgs, wrapper, readyWithinMs })
    : startServiceOnFreshDatabase({ dir: resolve(side), name, env, nodeArgs, wrapper, readyWithinMs });
}

// Webhook dispatch against the write rate (issue 23, CONTRACT §9 "Keeping pace"): two instances of the built
// service on one fresh PostgreSQL database, three sandbox organizations each with one endpoint on a local
// node:http receiver (its own process, answers 200 at once), client loops writing with no pause for DURATION s.
// The same load runs once more on another fresh database with no endpoint registered: the write ratio.
//   node bench/webhooks.mjs [--duration S] [--loops N] [--quick]      (npm run bench:webhooks builds first)
// Prints writes/s, deliveries/s (steady window), first delivery after the commit p50/p99/max (receiver time
// minus the event's `timestamp`, which the write transaction sets), the ratio, and checks every event arrived,
// signed, exactly once (every answer is 2xx). Exit 1 when a check fails, 2 when a target is missed.
// Loopback only; stops everything it started and drops its databases.
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, serviceNode, startScriptArgs } from './sandbox-project.mjs';
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const QUICK = process.argv.includes('--quick');
const DURATION_S = arg('--duration', QUICK ? 15 : 60);
const LOOPS = arg('--loops', 16);
const WARMUP_S = 3;
const PG = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECEIVER = fileURLToPath(new URL('./webhook-receiver.mjs', import.meta.url));
const psql = (db, sql) => execFileSync('psql', [`${PG}/${db}`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const startArgs = startScriptArgs(join(ROOT, 'package.json'));
const CONSOLE_KEY = `ck_${randomBytes(16).toString('hex')}`;
const SECRETS_KEY = `v1:${randomBytes(32).toString('base64url')}`;
const started = [];

async function startInstance(db, name) {
  const [port, consolePort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), `bench-webhooks-${name}-`));
  const child = spawn(serviceNode(ROOT), startArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CONSOLE_PORT: String(consolePort),
      CONSOLE_API_KEY: CONSOLE_KEY,
      SECRETS_KEY,
      DATABASE_URL: `${PG}/${db}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const instance = { name, port, consolePort, child, dataDir, base: `http://127.0.0.1:${port}`, console: `http://127.0.0.1:${consolePort}/console/v1` };
  started.push(instance);
  for (let i = 0; ; i++) {
    if ((await fetch(`${instance.base}/health/ready`).catch(() => null))?.ok) return instance;
    if (child.exitCode !== null) throw new Error(`${name} exited at start (${child.exitCode})`);
    if (i > 1200) throw new Error(`${name} not ready within 120 s`);
    await sleep(100);
  }
}

async function stopInstance(i) {
  if (i.child.exitCode === null) {
    const exited = new Promise((r) => i.child.once('exit', r));
    i.child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (i.child.exitCode === null) i.child.kill('SIGKILL');
  }
  rmSync(i.dataDir, { recursive: true, force: true });
}

async function consolePost(i, path, body) {
  const res = await fetch(`${i.console}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONSOLE_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`console ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One write through a keep-alive agent; resolves with the 201's operation_id, or throws. */
function write(agent, base, project, kind, seq) {
  const path = kind === 'product' ? '/api/partner/sandbox/v1/products' : '/api/partner/sandbox/v1/journal';
  const body = JSON.stringify(
    kind === 'product'
      ? { code: `W-${seq}-${randomBytes(3).toString('hex')}`, name: 'Webhook bench' }
      : {
          posting_date: '2026-06-15',
          lines: [
            { account_id: project.accounts[0].id, debit_minor: 12_500 },
            { account_id: project.accounts[1].id, credit_minor: 12_500 },
          ],
        },
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${project.token}`,
          'idempotency-key': randomUUID(),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text).operation_id) : reject(new Error(`${res.statusCode} ${text.slice(0, 200)}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** LOOPS client loops, each on one instance and one organization, writing with no pause. */
async function load(instances, projects, seconds, onWrite) {
  const end = Date.now() + seconds * 1000;
  const failures = [];
  let seq = 0;
  await Promise.all(
    Array.from({ length: LOOPS }, async (_, loop) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const instance = instances[loop % instances.length];
      const project = projects[loop % projects.length];
      while (Date.now() < end) {
        const kind = (loop + seq) % 2 === 0 ? 'product' : 'journal';
        try {
          const operationId = await write(agent, instance.base, project, kind, ++seq);
          onWrite(operationId, Date.now());
        } catch (err) {
          failures.push(String(err.message ?? err));
          if (failures.length > 100) throw new Error(`writes failing: ${failures.slice(0, 3).join('; ')}`);
        }
      }
      agent.destroy();
    }),
  );
  return failures;
}

const quantile = (sorted, q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);

/** One phase on its own fresh database: two instances, three organizations, with or without endpoints. */
async function phase(label, withEndpoints) {
  const db = `bench_webhooks_${label}_${process.pid}`;
  psql('postgres', `CREATE DATABASE ${db}`);
  const instances = [];
  let receiver = null;
  try {
    instances.push(await startInstance(db, `${label}-a`)); // migrates
    instances.push(await startInstance(db, `${label}-b`));
    const projects = [];
    for (let p = 0; p < 3; p++) projects.push(await consolePost(instances[p % 2], '/sandbox/projects', { name: `Webhook bench ${p}` }));
    if (withEndpoints) {
      receiver = fork(RECEIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const port = await new Promise((r) => receiver.once('message', (m) => r(m.port)));
      const secrets = [];
      for (let p = 0; p < 3; p++) {
        const ep = await consolePost(instances[0], `/apps/${projects[p].app_id}/webhook-endpoints`, {
          url: `http://127.0.0.1:${port}/hooks/${p}`,
          environment: 'sandbox',
        });
        secrets.push(ep.secret);
      }
      receiver.send({ secrets });
    }
    // warm-up (JIT, pools), then a quiet database for the measured run
    await load(instances, projects, WARMUP_S, () => undefined);
    if (receiver) await drain(receiver, db, 30_000);
    psql(db, 'VACUUM ANALYZE');
    psql(db, 'CHECKPOINT');
    if (receiver) receiver.send({ reset: true });
    const writes = new Map(); // operation_id -> client time of the 201
    const loadStart = Date.now();
    const failures = await load(instances, projects, DURATION_S, (op, at) => writes.set(op, at));
    const loadEnd = Date.now();
    let report = null;
    if (receiver) {
      await drain(receiver, db, 60_000);
      report = await new Promise((r) => {
        receiver.once('message', r);
        receiver.send({ report: true });
      });
    }
    const commits = psql(db, `SELECT count(*) FROM webhook_outbox`);
    return { label, writes, loadStart, loadEnd, failures, report, outboxRows: Number(commits) };
  } finally {
    receiver?.kill();
    for (const i of instances) await stopInstance(i);
    psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
}

/** Until every delivery is decided (or `ms`). */
async function drain(receiver, db, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const left = Number(
      psql(
        db,
        `SELECT (SELECT count(*) FROM webhook_outbox WHERE dispatched_at IS NULL) + (SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL)`,
      ),
    );
    if (left === 0) return;
    await sleep(250);
  }
}

const load1 = loadavg()[0];
let exit = 0;
try {
  console.log(
    `webhook dispatch bench: ${LOOPS} client loops, ${DURATION_S} s after a ${WARMUP_S} s warm-up, two instances, three endpoints; load average before ${load1.toFixed(2)}`,
  );
  const none = await phase('none', false);
  const withHooks = await phase('hooks', true);
  const seconds = (p) => (p.loadEnd - p.loadStart) / 1000;
  const wpsNone = none.writes.size / seconds(none);
  const wps = withHooks.writes.size / seconds(withHooks);
  const r = withHooks.report;
  // every written event: first delivery minus its timestamp (set in the write's transaction, just before the commit)
  const lat = [];
  let missing = 0;
  for (const op of withHooks.writes.keys()) {
    const got = r.byOperation[op];
    if (!got) missing++;
    else lat.push(got.firstAt - got.eventAt);
  }
  lat.sort((a, b) => a - b);
  // steady window: from 5 s into the run to its end; writes whose 201 came then, deliveries received then
  const from = withHooks.loadStart + 5_000;
  const to = withHooks.loadEnd;
  const writesInWindow = [...withHooks.writes.values()].filter((t) => t >= from && t < to).length;
  const deliveriesInWindow = Object.values(r.byOperation).filter((e) => e.firstAt >= from && e.firstAt < to).length;
  const windowS = (to - from) / 1000;
  const ratio = wps / wpsNone;
  const duplicates = Object.values(r.byOperation).filter((e) => e.count > 1).length;
  const wrongEndpoint = r.wrongEndpoint;
  console.log(`no endpoint:   ${none.writes.size} writes, ${wpsNone.toFixed(0)} writes/s, ${none.failures.length} failed`);
  console.log(
    `3 endpoints:   ${withHooks.writes.size} writes, ${wps.toFixed(0)} writes/s, ${withHooks.failures.length} failed; outbox rows ${withHooks.outboxRows}`,
  );
  console.log(
    `steady window: ${(writesInWindow / windowS).toFixed(0)} writes/s, ${(deliveriesInWindow / windowS).toFixed(0)} deliveries/s (${windowS.toFixed(0)} s)`,
  );
  console.log(
    `first delivery after the commit: p50 ${quantile(lat, 0.5)} ms, p99 ${quantile(lat, 0.99)} ms, max ${lat[lat.length - 1]} ms; > 5 s: ${lat.filter((x) => x > 5000).length}`,
  );
  console.log(`write ratio (3 endpoints / none): ${ratio.toFixed(2)}`);
  console.log(
    `checks: missing ${missing}, duplicates ${duplicates}, bad signatures ${r.badSignatures}, wrong endpoint ${wrongEndpoint}, received ${r.received}; load average after ${loadavg()[0].toFixed(2)}`,
  );
  if (missing > 0 || duplicates > 0 || r.badSignatures > 0 || wrongEndpoint > 0 || none.failures.length + withHooks.failures.length > 0) exit = 1;
  else if (quantile(lat, 0.99) > 2000 || deliveriesInWindow < writesInWindow * 0.98 || ratio < 0.85) exit = 2;
  console.log(
    `SUMMARY writes/s ${wps.toFixed(0)} deliveries/s ${(deliveriesInWindow / windowS).toFixed(0)} p50 ${quantile(lat, 0.5)} p99 ${quantile(lat, 0.99)} max ${lat[lat.length - 1]} ratio ${ratio.toFixed(2)} ${exit === 0 ? 'PASS' : exit === 1 ? 'CHECK FAILED' : 'TARGET MISSED'}`,
  );
} catch (err) {
  console.error(`BENCH FAILED: ${err.stack ?? err}`);
  exit = 1;
} finally {
  for (const i of started) await stopInstance(i).catch(() => undefined);
}
process.exit(exit);

// Do the purges keep up at volume without delaying writes? (issue 25, item 3). On a database filled by
// bench/fill-volume.mjs: adds a backlog of expired idempotency records and webhook events (with deliveries
// and attempts) beside the fill, starts the service (as `npm start` runs it; its own purges off for the
// run), drives product creates at a fixed rate (default 1,000/s), first alone, then while this process
// runs the service's own purge statements (the idempotency purge in batches of 1,000, the webhook
// retention purge in batches of 200, paced as the service paces them: src/shared/database/paced-batches.ts), and
// prints the purge rates and the writes' latency in both phases.
//   node bench/purge-at-volume.mjs --database postgres://…/filled [--rate 1000] [--duration 20]
//     [--expired-records 300000] [--expired-events 100000]
// Loopback only. It leaves the database as it found it (the backlog it added is what the purges delete).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, readySandboxProject, serviceNode, startScriptArgs } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const pg = require('pg');
const { PURGE_SQL: IDEMPOTENCY_PURGE } = require('../dist/src/modules/idempotency/infrastructure/pg-idempotency.repository.js');
const { PURGE_SQL: WEBHOOK_PURGE } = require('../dist/src/modules/webhooks/infrastructure/pg-webhook.repository.js');
const { pacedBatches } = require('../dist/src/shared/database/paced-batches.js');
// --unpaced: batches back to back, as the service ran them before pacedBatches
const UNPACED = process.argv.includes('--unpaced');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const url = arg('database');
const RATE = Number(arg('rate', '1000'));
const DURATION = Number(arg('duration', '20'));
const RECORDS = Number(arg('expired-records', '300000'));
const EVENTS = Number(arg('expired-events', '100000'));
if (!url || !['127.0.0.1', 'localhost'].includes(new URL(url).hostname)) {
  process.stderr.write('usage: node bench/purge-at-volume.mjs --database postgres://127.0.0.1/… (a filled database)\n');
  process.exit(2);
}
const db = new pg.Client({ connectionString: url, application_name: 'purge-at-volume' });
await db.connect();
const count = async (sql) => Number((await db.query(sql)).rows[0].n);

// the backlog: copies of the fill's organizations' rows, older than the retentions (24 h, 30 days)
process.stdout.write(`adding ${RECORDS.toLocaleString('en')} expired idempotency records and ${EVENTS.toLocaleString('en')} expired webhook events …\n`);
const tag = randomBytes(4).toString('hex');
await db.query(
  `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, response, created_at)
  SELECT organization_id, environment, app_id, 'expired-${tag}-' || idempotency_key, operation, fingerprint, response, now() - interval '25 hours' - (random() * interval '5 hours')
  FROM idempotency_records WHERE idempotency_key LIKE 'fill-%' LIMIT $1`,
  [RECORDS],
);
await db.query(`CREATE TEMP TABLE src AS SELECT o.*, md5('${tag}' || o.id)::uuid AS new_id FROM webhook_outbox o LIMIT $1`, [EVENTS]);
await db.query(`INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at, dispatched_at)
  SELECT organization_id, new_id, environment, app_id, event_type, body, now() - interval '31 days', now() - interval '31 days' FROM src`);
await db.query(`INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, attempts, next_attempt_at, delivered_at, last_status)
  SELECT s.organization_id, md5('d' || s.new_id)::uuid, s.new_id, d.endpoint_id, 1, now() - interval '31 days', now() - interval '31 days', 200
  FROM src s JOIN webhook_deliveries d ON d.organization_id = s.organization_id AND d.event_id = s.id`);
await db.query(`INSERT INTO webhook_attempts (organization_id, delivery_id, attempt, attempted_at, status, duration_ms)
  SELECT s.organization_id, md5('d' || s.new_id)::uuid, 1, now() - interval '31 days', 200, 50 FROM src s`);
await db.query('VACUUM ANALYZE idempotency_records, webhook_outbox, webhook_deliveries, webhook_attempts');
const expiredRecords = () => count(`SELECT count(*) AS n FROM idempotency_records WHERE created_at < now() - interval '24 hours'`);
const expiredEvents = () => count(`SELECT count(*) AS n FROM webhook_outbox WHERE created_at < now() - interval '30 days'`);
process.stdout.write(`backlog: ${(await expiredRecords()).toLocaleString('en')} records, ${(await expiredEvents()).toLocaleString('en')} events\n`);

const [port, consolePort] = [await freePort(), await freePort()];
const dataDir = mkdtempSync(join(tmpdir(), 'purge-at-volume-'));
const key = `ck_${randomBytes(16).toString('hex')}`;
const service = spawn(serviceNode(), startScriptArgs(), {
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
    // the service's own purges stay out of the measurement: this process runs their statements itself
    IDEMPOTENCY_RETENTION_HOURS: '1000000',
    WEBHOOK_RETENTION_DAYS: '100000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const latency = (r) =>
  `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, not 201: ${r.requests.total - (r.statusCodeStats?.['201']?.count ?? 0) + r.errors + r.timeouts}`;
try {
  const { base, headers } = await readySandboxProject(port, consolePort, key);
  const u = new URL(`${base}/products`);
  const load = () =>
    autocannon({
      url: u.origin,
      connections: 16,
      overallRate: RATE,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          path: u.pathname,
          setupRequest: (req) => {
            const k = randomUUID();
            req.headers = { ...headers, 'idempotency-key': k };
            req.body = JSON.stringify({ code: `C-${k.slice(0, 18)}`, name: 'Vare' });
            return req;
          },
        },
      ],
    });
  await autocannon({
    url: u.origin,
    connections: 16,
    overallRate: RATE,
    duration: 3,
    requests: [
      {
        method: 'POST',
        path: u.pathname,
        setupRequest: (req) => {
          const k = randomUUID();
          req.headers = { ...headers, 'idempotency-key': k };
          req.body = JSON.stringify({ code: `W-${k.slice(0, 18)}`, name: 'Vare' });
          return req;
        },
      },
    ],
  });
  const alone = await load();
  process.stdout.write(`writes at ${RATE}/s, no purge:   ${latency(alone)}\n`);

  // the two purges, each on its own connection, statement after statement, while the same load runs
  let stop = false;
  const purge = async (sql, cutoff, batch) => {
    const c = new pg.Client({ connectionString: url, application_name: 'purge' });
    await c.connect();
    let rows = 0,
      statements = 0,
      slowest = 0,
      slowestAt = 0;
    const t0 = performance.now();
    const one = async (size) => {
      const t = performance.now();
      const n = Number((await c.query(sql, [cutoff(), size])).rows[0].n);
      if (performance.now() - t > slowest) {
        slowest = performance.now() - t;
        slowestAt = statements + 1;
      }
      rows += n;
      statements++;
      return n;
    };
    if (UNPACED) {
      while (!stop && (await one(batch)) === batch);
    } else await pacedBatches(batch, one, () => stop);
    const seconds = (performance.now() - t0) / 1000;
    await c.end();
    return { rows, statements, seconds, slowest, slowestAt };
  };
  const running = [
    purge(IDEMPOTENCY_PURGE, () => new Date(Date.now() - 24 * 3_600_000), 1000),
    purge(WEBHOOK_PURGE, () => new Date(Date.now() - 30 * 86_400_000), 200),
  ];
  const withPurge = await load();
  stop = true;
  const [idem, hooks] = await Promise.all(running);
  process.stdout.write(`writes at ${RATE}/s, with purges: ${latency(withPurge)}\n`);
  process.stdout.write(
    `idempotency purge: ${idem.rows.toLocaleString('en')} records in ${idem.seconds.toFixed(1)} s = ${Math.round(idem.rows / idem.seconds).toLocaleString('en')}/s (${idem.statements} statements, slowest ${idem.slowest.toFixed(0)} ms: statement ${idem.slowestAt})\n`,
  );
  process.stdout.write(
    `webhook retention purge: ${hooks.rows.toLocaleString('en')} events (+ their deliveries and attempts) in ${hooks.seconds.toFixed(1)} s = ${Math.round(hooks.rows / hooks.seconds).toLocaleString('en')}/s (${hooks.statements} statements, slowest ${hooks.slowest.toFixed(0)} ms: statement ${hooks.slowestAt})\n`,
  );
  process.stdout.write(`left: ${(await expiredRecords()).toLocaleString('en')} records, ${(await expiredEvents()).toLocaleString('en')} events\n`);
} finally {
  const exited = new Promise((r) => service.once('exit', r));
  service.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  // what the purges did not reach goes too, so the fill stays as it was
  await db.query(`DELETE FROM idempotency_records WHERE idempotency_key LIKE 'expired-${tag}-%'`);
  await db.query(`WITH e AS (SELECT organization_id, id FROM webhook_outbox WHERE created_at < now() - interval '30 days'),
    d AS (SELECT x.organization_id, x.id FROM webhook_deliveries x JOIN e ON x.organization_id = e.organization_id AND x.event_id = e.id),
    a AS (DELETE FROM webhook_attempts y USING d WHERE y.organization_id = d.organization_id AND y.delivery_id = d.id),
    dd AS (DELETE FROM webhook_deliveries y USING d WHERE y.organization_id = d.organization_id AND y.id = d.id)
    DELETE FROM webhook_outbox y USING e WHERE y.organization_id = e.organization_id AND y.id = e.id`);
  await db.end();
}

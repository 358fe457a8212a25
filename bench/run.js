'use strict';
/**
 * `npm run bench [-- --quick]`: starts the built service (dist/) against a fresh PostgreSQL database,
 * provisions a sandbox project through the console, and measures each scenario with autocannon —
 * requests/s, p50/p99 latency, peak RSS — next to baselines measured in the same run on the same
 * database: a hand-written node:http + pg server (bench/baseline/server.js) and pgbench running the
 * service's own SQL. Figures are reported as ratios service/baseline, which cancel a noisy machine out.
 * Writes a table to stdout and bench/results/latest.json.
 */
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const autocannon = require('autocannon');

const QUICK = process.argv.includes('--quick');
const DURATION = QUICK ? 3 : 10;
const CONNECTIONS = 10;
const PG = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432';
const DB = `bench_${Date.now()}`;
const DATABASE_URL = `${PG}/${DB}`;
const CONSOLE_KEY = `bench-console-key-${randomUUID()}`;
const PORT = 3900, CONSOLE_PORT = 3901, BASELINE_PORT = 3902;
const ROOT = join(__dirname, '..');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const psql = (sql, db = 'postgres') => execFileSync('psql', [`${PG}/${db}`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number((new RegExp(`${k}:\\s+(\\d+)`).exec(status) || [])[1] || 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function waitReady(url, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try { if ((await fetch(url)).ok) return; } catch {}
    await sleep(200);
  }
  throw new Error(`not ready: ${url}`);
}

function start(cmd, args, env, name) {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function summary(res) {
  const non2xx = res.non2xx + res.errors + res.timeouts;
  return { rps: Math.round(res.requests.average), p50: res.latency.p50, p99: res.latency.p99, requests: res.requests.total, failed: non2xx };
}

function journal(accounts, lines) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const account_id = accounts[i % accounts.length];
    out.push(i % 2 === 0 ? { account_id, debit_minor: 99999999999999 } : { account_id, credit_minor: 99999999999999 });
  }
  return { posting_date: '2026-11-20', description: 'bench', lines: out };
}

function pgbench(script, vars) {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-')), 'tx.sql');
  writeFileSync(file, script);
  const args = ['-n', '-M', 'extended', '-c', String(CONNECTIONS), '-j', '2', '-T', String(DURATION), '-f', file, ...Object.entries(vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]), DATABASE_URL];
  const out = execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tps = Number((/tps = ([\d.]+)/.exec(out) || [])[1]);
  const lat = Number((/latency average = ([\d.]+) ms/.exec(out) || [])[1]);
  return { tps: Math.round(tps), latencyAvgMs: lat };
}

async function main() {
  psql(`CREATE DATABASE ${DB}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const service = start('node', ['--max-semi-space-size=8', 'dist/src/main.js'], {
    DATABASE_URL, PORT: String(PORT), CONSOLE_PORT: String(CONSOLE_PORT), CONSOLE_API_KEY: CONSOLE_KEY,
    LOG_LEVEL: 'warn', DATA_DIR: dataDir, NODE_ENV: 'production',
    // the limiter stays on the hot path but never refuses (CONTRACT §12 limit measured, not hit)
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE || '1000000000',
  }, 'service');
  let baseline;
  const results = { quick: QUICK, durationSeconds: DURATION, connections: CONNECTIONS, scenarios: {}, rss: {} };
  try {
    await waitReady(`http://127.0.0.1:${PORT}/health/ready`);
    const project = await (await fetch(`http://127.0.0.1:${CONSOLE_PORT}/console/v1/sandbox/projects`, {
      method: 'POST', headers: { authorization: `Bearer ${CONSOLE_KEY}`, 'content-type': 'application/json' }, body: '{"name":"bench"}',
    })).json();
    const accounts = project.accounts.map((a) => a.id);
    const headers = { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' };
    const base = `http://127.0.0.1:${PORT}/api/partner/sandbox/v1`;
    baseline = start('node', ['bench/baseline/server.js'], { DATABASE_URL, PORT: String(BASELINE_PORT) }, 'baseline');
    await sleep(500);
    const bbase = `http://127.0.0.1:${BASELINE_PORT}/api/partner/sandbox/v1`;

    const prepare2 = JSON.stringify(journal(accounts, 2));
    const prepare500 = JSON.stringify(journal(accounts, 500));
    const run = async (url, body, extra = {}) => summary(await cannon({ url, method: 'POST', headers, body, ...extra }));
    const uniqueProduct = {
      setupRequest: (req) => {
        const id = randomUUID();
        req.headers = { ...headers, 'idempotency-key': id };
        req.body = JSON.stringify({ code: `P-${id}`, name: 'Bench product', unit_price_minor: 12500 });
        return req;
      },
    };

    // 1. prepare, 2 lines — three rounds for RSS growth
    const rounds = [];
    for (let i = 0; i < 3; i++) {
      const r = await run(`${base}/journal/prepare`, prepare2);
      rounds.push({ ...r, rssMb: Math.round(rssOf(service.pid).rssMb) });
    }
    const b1 = await run(`${bbase}/journal/prepare`, prepare2);
    results.scenarios.prepare_2_lines = { service: rounds[0], rounds, baseline: b1, ratio_rps: +(rounds[0].rps / b1.rps).toFixed(2) };
    results.rss.round_growth = +(rounds[2].rssMb / rounds[0].rssMb).toFixed(3);

    // 2. prepare, 500 lines (~60 KB)
    const s2 = await run(`${base}/journal/prepare`, prepare500);
    const b2 = await run(`${bbase}/journal/prepare`, prepare500);
    results.scenarios.prepare_500_lines = { bodyBytes: prepare500.length, service: s2, baseline: b2, ratio_rps: +(s2.rps / b2.rps).toFixed(2), ratio_p99: +(s2.p99 / b2.p99).toFixed(2) };

    // 3. product create, a new key and code per request
    const s3 = await run(`${base}/products`, undefined, { requests: [{ method: 'POST', path: '/api/partner/sandbox/v1/products', ...uniqueProduct }] });
    const b3 = await run(`${bbase}/products`, undefined, { requests: [{ method: 'POST', path: '/api/partner/sandbox/v1/products', ...uniqueProduct }] });
    const orgApp = { org: project.organization_id, app: project.app_id };
    const pg3 = pgbench(readFileSync(join(__dirname, 'sql', 'product-create.sql'), 'utf8'), orgApp);
    results.scenarios.product_create = { service: s3, baseline: b3, pgbench: pg3, ratio_rps: +(s3.rps / b3.rps).toFixed(2), ratio_vs_pgbench: +(s3.rps / pg3.tps).toFixed(2) };

    // 4. product replay of one key
    const replayKey = randomUUID();
    const replayBody = JSON.stringify({ code: `R-${replayKey}`, name: 'Replayed' });
    await fetch(`${base}/products`, { method: 'POST', headers: { ...headers, 'idempotency-key': replayKey }, body: replayBody });
    const s4 = await run(`${base}/products`, replayBody, { headers: { ...headers, 'idempotency-key': replayKey } });
    results.scenarios.product_replay = { service: s4 };

    // 5. final posting, 2 lines
    const post = {
      setupRequest: (req) => { req.headers = { ...headers, 'idempotency-key': randomUUID() }; req.body = prepare2; return req; },
    };
    const s5 = await run(`${base}/journal`, undefined, { requests: [{ method: 'POST', path: '/api/partner/sandbox/v1/journal', ...post }] });
    const pg5 = pgbench(readFileSync(join(__dirname, 'sql', 'journal-post.sql'), 'utf8'), { ...orgApp, a1: accounts[0], a2: accounts[1] });
    results.scenarios.journal_post_2_lines = { service: s5, pgbench: pg5, ratio_vs_product_create: +(s5.rps / s3.rps).toFixed(2), ratio_vs_pgbench: +(s5.rps / pg5.tps).toFixed(2) };

    // 6. 20 concurrent identical product creates: exactly one row
    const key = randomUUID();
    const code = `C-${key}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () =>
      fetch(`${base}/products`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify({ code, name: 'Concurrent' }) })
        .then(async (r) => ({ status: r.status, body: await r.json() }))));
    const rows = Number(psql(`SELECT count(*) FROM products WHERE code = '${code}'`, DB));
    const ids = new Set(answers.map((a) => a.body.id));
    results.scenarios.concurrent_identical_creates = {
      statuses: [...new Set(answers.map((a) => a.status))], distinctIds: ids.size, firstExecutions: answers.filter((a) => a.body.replayed === false).length, productRows: rows,
      correct: rows === 1 && ids.size === 1 && answers.every((a) => a.status === 201),
    };
    results.rss.peakMb = Math.round(rssOf(service.pid).peakMb);
  } finally {
    service.kill('SIGTERM');
    baseline?.kill('SIGTERM');
    await sleep(1000);
    try { psql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`); } catch {}
  }

  const s = results.scenarios;
  const row = (name, svc, b, ratio) => `${name.padEnd(26)} ${String(svc.rps).padStart(7)} ${String(svc.p50).padStart(5)} ${String(svc.p99).padStart(5)}   ${b ? String(b).padStart(10) : ''.padStart(10)} ${ratio ? String(ratio).padStart(6) : ''}`;
  const lines = [
    `partner-api bench (${QUICK ? 'quick, ' : ''}${DURATION}s per scenario, ${CONNECTIONS} connections)`,
    `${'scenario'.padEnd(26)} ${'req/s'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(5)}   ${'baseline'.padStart(10)} ${'ratio'.padStart(6)}`,
    row('prepare 2 lines', s.prepare_2_lines.service, `${s.prepare_2_lines.baseline.rps} r/s`, s.prepare_2_lines.ratio_rps),
    row('prepare 500 lines', s.prepare_500_lines.service, `p99 ${s.prepare_500_lines.baseline.p99}`, `p99×${s.prepare_500_lines.ratio_p99}`),
    row('product create', s.product_create.service, `${s.product_create.baseline.rps} r/s`, s.product_create.ratio_rps),
    row('  vs pgbench', s.product_create.service, `${s.product_create.pgbench.tps} tps`, s.product_create.ratio_vs_pgbench),
    row('product replay', s.product_replay.service),
    row('journal post 2 lines', s.journal_post_2_lines.service, `${s.journal_post_2_lines.pgbench.tps} tps`, s.journal_post_2_lines.ratio_vs_pgbench),
    `journal post / product create: ${s.journal_post_2_lines.ratio_vs_product_create}`,
    `20 concurrent identical creates: ${s.concurrent_identical_creates.correct ? 'exactly one product' : 'WRONG'} (${JSON.stringify(s.concurrent_identical_creates)})`,
    `RSS peak ${results.rss.peakMb} MB; prepare round 3 / round 1 RSS: ${results.rss.round_growth}`,
    `failed requests: ${Object.entries(s).filter(([, v]) => v.service).map(([k, v]) => `${k}=${v.service.failed}`).join(' ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(join(__dirname, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  if (!s.concurrent_identical_creates.correct) process.exitCode = 1;
}

main().catch((e) => { process.stderr.write(`${e.stack}\n`); process.exit(1); });

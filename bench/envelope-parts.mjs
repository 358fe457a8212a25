// The envelope (CONTRACT §3, §11, §12) part by part against its by-hand twin (issue 37), in one sitting: one
// server process holds an Express app per variant (each on its own port, the same answer: a small JSON body),
// and the variants are loaded in turn, round after round (A B C … then backwards), so the machine's drift falls
// on all; prints per variant the median server CPU per request and what it costs above the bare app.
// The twins are the yardstick baseline's own envelope (../shared/bench/baseline.mjs), done inside Express.
//   node bench/envelope-parts.mjs [--old DIR] [--rounds 5] [--duration 4] [--only a,b,…] [--micro]
// --old: another build (e.g. main's) whose completion hook is measured beside this one's (variant completion-old).
// --micro: no sockets: each variant's middleware runs in this process on fresh node:http request/response objects
// (answer status set, 'finish' emitted), 20,000 per variant and round, interleaved; CPU ns per request above bare.
// Those plain objects are not a prepared listener's (ADR 0013, trick 8): there the replayed headers go through setHeader.
// On a loaded machine this resolves a few µs where the HTTP runs (CPU ticks of a loaded server) do not.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const HERE = resolve(new URL('..', import.meta.url).pathname);

if (process.argv.includes('--serve')) await serve(arg('old'));
else if (process.argv.includes('--micro')) await micro(arg('old') && resolve(arg('old')));
else await measure();

async function micro(oldDir) {
  const { IncomingMessage, ServerResponse } = require('node:http');
  const { Socket } = require('node:net');
  const variants = buildVariants(oldDir);
  const only = arg('only')?.split(',');
  const names = Object.keys(variants).filter((n) => !only || only.includes(n) || n === 'bare');
  const ROUNDS = Number(arg('rounds', '15'));
  const N = 20_000;
  const socket = new Socket();
  // as Express's own init middleware does per request: its request and response prototypes (req.path, res.json …)
  const app = require(resolve(HERE, 'node_modules/express'))();
  const route = { path: '/api/partner/sandbox/v1/journal/prepare' };
  const one = async (middleware) => {
    const req = new IncomingMessage(socket);
    Object.setPrototypeOf(req, app.request);
    req.method = 'POST';
    req.url = req.originalUrl = '/api/partner/sandbox/v1/journal/prepare';
    req.headers = { 'content-type': 'application/json', authorization: 'Bearer x', 'idempotency-key': '3c9f0e52-1b7e-4c1e-9d55-0b1f3f0a5e21' };
    Object.defineProperty(req, 'ip', { value: '127.0.0.1' });
    req.route = route;
    req.baseUrl = '';
    const res = new ServerResponse(req);
    Object.setPrototypeOf(res, app.response);
    res.locals = {};
    for (const m of middleware) await new Promise((next) => m(req, res, next));
    res.statusCode = 200;
    res.emit('finish');
  };
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) {
    for (let i = 0; i < N; i++) {
      await one(variants[name]);
      if (variants[name].settle && i % 500 === 499) await variants[name].settle();
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      // CPU time of this process, not wall time: on a shared machine the wall clock counts the waits for a core
      const t = process.cpuUsage();
      const v = variants[name];
      for (let i = 0; i < N; i++) {
        await one(v);
        if (v.settle && i % 500 === 499) await v.settle();
      }
      const used = process.cpuUsage(t);
      runs[name].push(((used.user + used.system) * 1000) / N);
    }
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const bare = median(runs.bare);
  for (const name of names) {
    const m = median(runs[name]);
    process.stdout.write(`${name.padEnd(20)} ${m.toFixed(0).padStart(6)} ns/request  above bare ${(m - bare).toFixed(0).padStart(6)} ns\n`);
  }
}

async function serve(oldDir) {
  const variants = buildVariants(oldDir);
  const { exactRoutingExpress } = require(resolve(HERE, 'dist/src/shared/http/server-limits.js'));
  const body = { valid: true, balanced: true, line_count: 2, totals: { debit_minor: 1000, credit_minor: 1000 } };
  const handler = (_req, res) => res.json(body);
  const ports = {};
  const { writeHeadersOnce } = require(resolve(HERE, 'dist/src/shared/performance/headers-written-once.js'));
  for (const [name, middleware] of Object.entries(variants)) {
    const app = exactRoutingExpress();
    // as bootstrap.ts prepares each listener (ADR 0013, trick 8): this build's replayed headers are written once
    if (name === 'headers-replayed') writeHeadersOnce(app);
    for (const m of middleware) app.use(m);
    app.get('/x', handler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    ports[name] = server.address().port;
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`);
}

/** The variants: per part, the service's (this build's, and --old's completion hook) and the baseline's twin. */
function buildVariants(oldDir) {
  const dist = (dir, path) => require(resolve(dir, 'dist/src', path));
  const { securityHeaders, helmetApiHeaders } = dist(HERE, 'shared/http/security-headers.js');
  const { httpLogger } = dist(HERE, 'shared/logging/http-logger.js');
  const { createRootLogger } = dist(HERE, 'shared/logging/root-logger.js');
  const { ServiceMetrics } = dist(HERE, 'modules/metrics/service-metrics.js');
  const { RateLimitService } = dist(HERE, 'modules/rate-limit/rate-limit.service.js');
  const devNull = { write: () => true };
  const logger = createRootLogger('warn', devNull);
  const fakeDb = { isInitialized: false, driver: {} };
  // the baseline's twins (../shared/bench/baseline.mjs), as Express middleware
  const HEADERS = Object.entries({
    'Content-Security-Policy': "default-src 'none';frame-ancestors 'none'",
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Origin-Agent-Cluster': '?1',
    'Referrer-Policy': 'no-referrer',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'X-DNS-Prefetch-Control': 'off',
    'X-Download-Options': 'noopen',
    'X-Frame-Options': 'DENY',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'X-XSS-Protection': '0',
  });
  const headersByHand = (_req, res, next) => {
    for (const [k, v] of HEADERS) res.setHeader(k, v);
    next();
  };
  const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const histograms = new Map();
  const completionByHand = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const key = `${req.method} ${req.route?.path ?? 'unmatched'} ${res.statusCode}`;
      let h = histograms.get(key);
      if (!h) histograms.set(key, (h = { counts: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
      h.counts[i]++;
      h.sum += seconds;
      h.count++;
      if (logger.isLevelEnabled('info')) logger.info({ msg: 'request completed' });
    });
    next();
  };
  const RATE = 1_000_000_000;
  const windows = new Map();
  const rateByHand = (_req, res, next) => {
    const now = Date.now();
    const key = 'f'.repeat(64);
    let w = windows.get(key);
    if (!w) windows.set(key, (w = { start: now - (now % 60_000), current: 0, previous: 0 }));
    if (now - w.start >= 60_000) {
      const passed = Math.floor((now - w.start) / 60_000);
      w.previous = passed === 1 ? w.current : 0;
      w.current = 0;
      w.start += passed * 60_000;
    }
    const used = w.previous * (1 - (now - w.start) / 60_000) + w.current;
    w.current += 1;
    res.setHeader('RateLimit-Policy', `"partner";q=${RATE};w=60`);
    res.setHeader('RateLimit', `"partner";r=${Math.max(0, Math.floor(RATE - used - 1))};t=0`);
    next();
  };
  // the service's: the partner guard's step (partner-auth.guard.ts), awaited as there
  const rateStep = (limiter) => (_req, res, next) => {
    limiter.take('f'.repeat(64)).then((outcome) => {
      res.setHeader('RateLimit-Policy', outcome.headers['RateLimit-Policy']);
      res.setHeader('RateLimit', outcome.headers.RateLimit);
      next();
    }, next);
  };
  const rateService = rateStep(new RateLimitService({ rateLimitPerMinute: RATE, redisUrl: null }));
  const old = (path) => require(resolve(oldDir, 'dist/src', path));
  function requestLog(dir, logWith) {
    const { prepareValue } = require(resolve(HERE, 'node_modules/pg/lib/utils.js'));
    const { RequestLogRecorder } = dist(dir, 'modules/developers/application/request-log.recorder.js');
    const { PgDeveloperRepository } = dist(dir, 'modules/developers/infrastructure/pg-developer.repository.js');
    const { SystemClock } = dist(dir, 'shared/domain/clock.js');
    const repo = new PgDeveloperRepository({});
    const manager = { query: async (_sql, params = []) => params.map((p) => prepareValue(p)) };
    const transactions = { run: (work) => work(manager) };
    const recorder = new RequestLogRecorder(repo, transactions, new SystemClock(), { every: () => ({ cancel() {} }) }, { requestLogRetentionDays: 7 });
    const caller = { organizationId: 'o', appId: '6f1c1d2e-0000-4000-8000-000000000001', environment: 'sandbox' };
    const known = (req, _res, next) => {
      req.caller = caller;
      req.id = randomUUID();
      next();
    };
    const middleware = [known, logWith(recorder.record)];
    middleware.settle = () => recorder.settled();
    return middleware;
  }
  const completionNew = () => httpLogger(logger, 'partner', [new ServiceMetrics(fakeDb).completion('partner')]);
  const completionOld = () => {
    const m = new (old('modules/metrics/service-metrics.js').ServiceMetrics)(fakeDb);
    const log = old('shared/logging/http-logger.js').httpLogger(logger, 'partner');
    return [log, m.middleware('partner')];
  };

  const variants = {
    bare: [],
    'helmet-middleware': [helmetApiHeaders],
    'headers-replayed': [securityHeaders()],
    ...(oldDir ? { 'headers-old': [old('shared/http/security-headers.js').securityHeaders()] } : {}),
    'headers-by-hand': [headersByHand],
    'completion-new': [completionNew()],
    ...(oldDir ? { 'completion-old': completionOld() } : {}),
    'completion-by-hand': [completionByHand],
    'ratelimit-service': [rateService],
    ...(oldDir
      ? { 'ratelimit-old': [rateStep(new (old('modules/rate-limit/rate-limit.service.js').RateLimitService)({ rateLimitPerMinute: RATE, redisUrl: null }))] }
      : {}),
    'ratelimit-by-hand': [rateByHand],
    // the request log's hook (CONTRACT §15) with its flush's work in this process: every 500 calls the queue is
    // written to a repository whose "database" is node-postgres's own parameter preparation (arrays to literals)
    'requestlog-off': requestLog(HERE, () => httpLogger(logger, 'partner', [])),
    'requestlog-new': requestLog(HERE, (hook) => httpLogger(logger, 'partner', [hook])),
    ...(oldDir ? { 'requestlog-old': requestLog(oldDir, (hook) => old('shared/logging/http-logger.js').httpLogger(logger, 'partner', hook)) } : {}),
  };
  return variants;
}

async function measure() {
  const autocannon = require('autocannon');
  const ROUNDS = Number(arg('rounds', '5'));
  const DURATION = Number(arg('duration', '4'));
  const only = arg('only')?.split(',');
  const child = spawn(
    resolve(HERE, 'node_modules/.bin/node'),
    [new URL(import.meta.url).pathname, '--serve', ...(arg('old') ? ['--old', resolve(arg('old'))] : [])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const ports = await new Promise((res, rej) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) res(JSON.parse(out));
      });
      child.once('exit', (code) => rej(new Error(`server exited ${code}`)));
    });
    const names = Object.keys(ports).filter((n) => !only || only.includes(n) || n === 'bare');
    const ticks = () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(f[11]) + Number(f[12]);
    };
    const runs = Object.fromEntries(names.map((n) => [n, []]));
    // every variant compiled and warm before the first measured round
    for (const name of names) await autocannon({ url: `http://127.0.0.1:${ports[name]}/x`, connections: 16, duration: 3 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 ? [...names].reverse() : names) {
        const url = `http://127.0.0.1:${ports[name]}/x`;
        await autocannon({ url, connections: 16, duration: 1 });
        const t = ticks();
        const r = await autocannon({ url, connections: 16, duration: DURATION });
        runs[name].push({ rps: r.requests.average, cpu: ((ticks() - t) * 10_000) / r.requests.total });
      }
      process.stderr.write(`round ${round + 1} of ${ROUNDS}\n`);
    }
    const median = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const bare = median(runs.bare.map((x) => x.cpu));
    for (const name of names) {
      const cpu = median(runs[name].map((x) => x.cpu));
      process.stdout.write(
        `${name.padEnd(20)} ${median(runs[name].map((x) => x.rps))
          .toFixed(0)
          .padStart(
            6,
          )} req/s  CPU ${cpu.toFixed(1).padStart(6)} µs/req  above bare ${(cpu - bare).toFixed(1).padStart(5)} µs  (runs: ${runs[name].map((x) => x.cpu.toFixed(0)).join(' ')})\n`,
      );
    }
  } finally {
    child.kill();
  }
}

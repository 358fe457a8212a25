// The ladder (issue 47): from the framework floor (../shared/bench/floor.mjs's NestJS app serving the yardstick
// baseline's own prepare handler) up to the service, one part at a time in request order, each rung its own
// server process built from the service's real classes (the built dist/, `npm run build` first), on the
// project's pinned Node with the start script's node flags. All rungs are loaded at ONE fixed rate (autocannon's
// overallRate, so what the load generator spends stays out of the figure), a 2-line `POST /journal/prepare`,
// in interleaved rounds (A B C … then C B A …, so the machine's drift falls on all), and each rung's server CPU
// per request (user + sys of the process, /proc/<pid>/stat) is reported as the median of the rounds, with the
// spread and the step from the rung below, per round (median and min…max over the rounds).
//   node bench/ladder.mjs [--quick] [--rate 1000] [--rounds 5] [--duration 6] [--only floor,handler,…] [--json OUT]
//   node bench/ladder.mjs --instructions [--warmup 30000] [--rewarm 1000] [--requests 2000] [--rounds 3] [--only …] [--json OUT]
// --instructions: each rung's server (the service too) under valgrind's callgrind, as bench/instructions.mjs runs the
// service: instrumentation off while it starts and for --warmup requests, on for 500 more, then per round (rungs
// interleaved as above) --rewarm requests uncounted (a rung that waited idle compiles again), then the instructions
// of --requests requests (4 connections, no fixed rate), between a `zero` and a `dump` through vgdb. A count of the
// server process's work, not a time: it does not move with the machine's other load (a 2-core VM whose plain loop
// wandered ±25 % could not tell a 20 µs rung from the noise), and says nothing of
// PostgreSQL's side. The figure is the program's instructions: V8's collector and compilers left out (callgrind.mjs,
// countOf), which moved a rung's total by ±30 % from round to round; the totals are printed beside it. The warm-up
// is long (callgrind.mjs, WARMUP_REQUESTS). About 45 minutes for the 16 rungs.
// Results: bench/RESULTS.md, "Issue 47 item 1: the ladder".
// LADDER_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=DIR`) is the rung servers' NODE_OPTIONS (not the service's).
// Rungs below `handler` serve the baseline's handler (it reads and checks the body itself, and looks the token and
// accounts up in a baseline database seeded with the service project's token hash and account ids); from
// `handler` on the service's JournalController answers. `service` is the whole service as `npm start` runs it.
import { spawn, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callgrindArgs, countOf, ROUND_REQUESTS, WARMUP_REQUESTS, warmThenInstrument } from './callgrind.mjs';

const HERE = resolve(new URL('..', import.meta.url).pathname);
const need = createRequire(join(HERE, 'package.json'));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const YARDSTICK = resolve(arg('yardstick', join(HERE, '..', 'shared', 'bench')));

/** The rungs, in request order; each adds its part to every rung below it. */
export const RUNGS = [
  ['floor', "floor.mjs's Nest app: ExpressAdapter, one @All('*') handler with @Req/@Res, the baseline's handler (its by-hand envelope on)"],
  ['floor-bare', "the same, the baseline's handler without its by-hand envelope (BASELINE_ENVELOPE=0); every rung above adds the service's own"],
  [
    'adapter',
    "the service's Express (exact routing, LimitedExpressAdapter, trust proxy), its Nest logger, small-buffer-pool; the route as declared: @Post on both bases, @HttpCode, @PartnerRoute",
  ],
  ['security-headers', 'writeHeadersOnce(app); app.use(securityHeaders())'],
  ['request-id', 'app.use(requestIdMiddleware({ noStore: true }))'],
  ['shutdown', 'app.use(GracefulShutdown.middleware())'],
  ['http-logger', "app.use(httpLogger(…, [metrics.completion('partner')])): the completion hook, log line (off at warn) and metrics"],
  ['json-body', 'JsonBodyMiddleware on the routes taking a @Body() (body-routes.ts); the baseline handler is handed the parsed body re-serialized'],
  ['auth-guard', 'PartnerAuthGuard as APP_GUARD (AuthModule, RateLimitModule): token, in-flight, rate limit, grant, scope, prefetch'],
  ['validation-pipe', 'app.useGlobalPipes(new BodyValidationPipe()) on @Body() JournalRequestDto'],
  ['problem-filter', "app.useGlobalFilters(new ProblemFilter('partner-api'))"],
  ['handler', "the service's JournalApiModule (JournalController.prepare, JournalService, repositories) instead of the baseline handler"],
  ['answer-observation', 'observeJsonAnswers (the res.json hook)'],
  ['request-log', 'RequestLogRecorder.record as the second completion hook (the developer request log, batched)'],
  [
    'partner-app',
    "bootstrap.ts's createApplications() itself (no console listener): PartnerAppModule's every module, their middleware and routes, Swagger, background jobs, the pool as configured",
  ],
  ['service', 'the service as `npm start` runs it: every module, their middleware and routes, Swagger, background jobs, the console listener'],
].map(([name, what]) => ({ name, what }));
const rungIndex = (name) => RUNGS.findIndex((r) => r.name === name);

if (process.argv.includes('--serve')) await serve(arg('serve'));
else await measure();

// ------------------------------------------------------------------------------------------- one rung's server

async function serve(name) {
  const at = rungIndex(name);
  if (at < 0 || name === 'service') throw new Error(`no rung ${name}`);
  const has = (part) => at >= rungIndex(part);
  if (!has('adapter')) process.env.BASELINE_ENVELOPE = name === 'floor' ? '1' : '0';
  else process.env.BASELINE_ENVELOPE = '0';
  if (has('adapter')) need(join(HERE, 'dist/src/shared/performance/small-buffer-pool.js'));
  need('reflect-metadata');
  const pg = need('pg');
  const { makeHandlers } = await import(pathToFileURL(join(YARDSTICK, 'baseline.mjs')).href);
  const { NestFactory, ModulesContainer, APP_GUARD } = need('@nestjs/core');
  const { Module, Controller, All, Post, Req, Res, Body, HttpCode } = need('@nestjs/common');
  const { ExpressAdapter } = need('@nestjs/platform-express');
  const dist = (p) => need(join(HERE, 'dist/src', p));

  // fifteen servers share PostgreSQL's max_connections with the machine's other work: small pools that close
  // idle connections soon (at 1000 req/s a rung needs a few; the rungs not under load hold none)
  const POOL = { max: 4, idleTimeoutMillis: 5_000 };
  const pool = new pg.Pool({ connectionString: process.env.BASELINE_URL, ...POOL });
  pool.on('error', () => {});
  const handle = makeHandlers(pool);
  // after the JSON body middleware the stream is read: the baseline handler gets the body as a stream again
  const replayed = (req) => {
    const bytes = Buffer.from(JSON.stringify(req.body));
    return {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      socket: req.socket,
      resume() {},
      on(event, fn) {
        if (event === 'data') fn(bytes);
        else if (event === 'end') fn();
        return this;
      },
    };
  };

  let app;
  if (name === 'partner-app') {
    const config = dist('shared/config/app-config.js').loadConfig();
    const apps = await dist('bootstrap.js').createApplications(config);
    app = apps.partner;
  } else if (!has('adapter')) {
    class C {
      any(req, res) {
        handle(req, res);
      }
    }
    Reflect.decorate([All('*')], C.prototype, 'any', Object.getOwnPropertyDescriptor(C.prototype, 'any'));
    Req()(C.prototype, 'any', 0);
    Res()(C.prototype, 'any', 1);
    const Ctl = Reflect.decorate([Controller()], C);
    const Mod = Reflect.decorate([Module({ controllers: [Ctl] })], class M {});
    app = await NestFactory.create(Mod, new ExpressAdapter(), { logger: false, bodyParser: false });
  } else {
    const { loadConfig } = dist('shared/config/app-config.js');
    const { createDataSource } = dist('shared/database/data-source.js');
    const { PgPool } = dist('shared/database/pg-pool.js');
    const { CoreModule } = dist('shared/database/database.module.js');
    const { LimitedExpressAdapter, exactRoutingExpress } = dist('shared/http/server-limits.js');
    const { createRootLogger } = dist('shared/logging/root-logger.js');
    const { PinoNestLogger } = dist('shared/logging/nest-logger.js');
    const { PARTNER_BASES } = dist('shared/http/partner-paths.js');
    const { PartnerRoute, PartnerAuthGuard } = dist('modules/auth/access/index.js');
    const { AuthModule } = dist('modules/auth/index.js');
    const { RateLimitModule } = dist('modules/rate-limit/index.js');
    const { journalReferencesPrefetch } = dist('modules/journal/api/journal-references.prefetch.js');
    const { JournalRequestDto } = dist('modules/journal/api/journal.request.dto.js');
    const { JournalApiModule } = dist('modules/journal/index.js');
    const { routesTakingBody } = dist('shared/http/body-routes.js');
    const { JsonBodyMiddleware } = dist('shared/http/json-body.middleware.js');

    const config = loadConfig();
    const pool = PgPool.open(config.database);
    Object.assign(pool.driver.options, POOL);
    const dataSource = await createDataSource(pool);
    const core = CoreModule.forRoot(config, dataSource, pool);
    // the global modules that bind other modules' SQL ports (as the partner app's module tree imports them)
    const imports = [
      core,
      dist('modules/developers/demo-identity.module.js').DemoIdentityModule,
      dist('modules/auth/sandbox/sandbox-token-sql.module.js').SandboxTokenSqlModule,
      dist('modules/auth/grants/grant-token-sql.module.js').GrantTokenSqlModule,
      dist('modules/attachments/entry-attachments-sql.module.js').EntryAttachmentsSqlModule,
    ];
    const controllers = [];
    const providers = [];
    if (!has('handler')) {
      const bodyParam = has('json-body');
      class F {
        prepare(req, res) {
          handle(bodyParam ? replayed(req) : req, res);
        }
      }
      const d = Object.getOwnPropertyDescriptor(F.prototype, 'prepare');
      Reflect.decorate([Post('prepare'), HttpCode(200), PartnerRoute('journal:prepare', { prefetch: journalReferencesPrefetch })], F.prototype, 'prepare', d);
      Req()(F.prototype, 'prepare', 0);
      Res()(F.prototype, 'prepare', 1);
      if (bodyParam) Body()(F.prototype, 'prepare', 2);
      Reflect.defineMetadata('design:paramtypes', [Object, Object, has('validation-pipe') ? JournalRequestDto : Object], F.prototype, 'prepare');
      controllers.push(Reflect.decorate([Controller(PARTNER_BASES.map((base) => `${base}/journal`))], F));
    } else {
      imports.push(JournalApiModule);
    }
    if (has('auth-guard')) {
      imports.push(AuthModule, RateLimitModule);
      providers.push({ provide: APP_GUARD, useClass: PartnerAuthGuard });
    }
    let RequestLogRecorder;
    if (has('request-log')) {
      ({ RequestLogRecorder } = dist('modules/developers/application/request-log.recorder.js'));
      const { DevelopersCoreModule } = dist('modules/developers/developers-core.module.js');
      imports.push(
        Reflect.decorate(
          [Module({ imports: [DevelopersCoreModule], providers: [RequestLogRecorder], exports: [RequestLogRecorder] })],
          class RequestLogRung {},
        ),
      );
    }
    // as PartnerAppModule.configure binds it: the routes taking a body, read off the controllers in the container
    class LadderModule {
      constructor(modules) {
        this.modules = modules;
      }
      configure(consumer) {
        if (!has('json-body')) return;
        const all = [...this.modules.values()].flatMap((m) => [...m.controllers.values()].map((w) => w.metatype));
        const routes = routesTakingBody(all);
        if (routes.length > 0) consumer.apply(JsonBodyMiddleware).forRoutes(...routes);
      }
    }
    Reflect.defineMetadata('design:paramtypes', [ModulesContainer], LadderModule);
    const Mod = Reflect.decorate([Module({ imports, controllers, providers })], LadderModule);

    const logger = createRootLogger(config.logLevel);
    app = await NestFactory.create(Mod, new LimitedExpressAdapter(exactRoutingExpress(), config.maxConnections), {
      bodyParser: false,
      logger: new PinoNestLogger(logger.child({ listener: 'partner' })),
      abortOnError: false,
    });
    // the order of configureHttpApp (bootstrap.ts)
    app.getHttpAdapter().getInstance().set('trust proxy', config.trustProxy);
    if (has('security-headers')) {
      // as configureHttpApp: the listener prepared for headers written once (ADR 0013, trick 8), then the middleware
      dist('shared/performance/headers-written-once.js').writeHeadersOnce(app.getHttpAdapter().getInstance());
      app.use(dist('shared/http/security-headers.js').securityHeaders());
    }
    if (has('request-id')) app.use(dist('shared/http/request-id.middleware.js').requestIdMiddleware({ noStore: true }));
    if (has('shutdown')) app.use(new (dist('shared/http/graceful-shutdown.js').GracefulShutdown)().middleware());
    if (has('http-logger')) {
      const { ServiceMetrics } = dist('modules/metrics/index.js');
      const completed = [new ServiceMetrics(dataSource).completion('partner')];
      const recorder = RequestLogRecorder && app.get(RequestLogRecorder, { strict: false });
      if (recorder?.enabled) completed.push(recorder.record);
      else if (RequestLogRecorder) throw new Error('the request log is off (REQUEST_LOG_RETENTION_DAYS=0?)');
      app.use(dist('shared/logging/http-logger.js').httpLogger(logger, 'partner', completed));
    }
    if (has('answer-observation')) dist('shared/performance/answer-observation.js').observeJsonAnswers(app.getHttpAdapter().getInstance());
    if (has('problem-filter')) app.useGlobalFilters(new (dist('shared/http/problem.filter.js').ProblemFilter)('partner-api'));
    if (has('validation-pipe')) app.useGlobalPipes(new (dist('shared/http/validation/body-validation.pipe.js').BodyValidationPipe)());
    await app.init();
  }
  await app.listen(0, '127.0.0.1');
  process.send({ port: app.getHttpServer().address().port });
  // an exit of its own, so that a --cpu-prof in LADDER_NODE_OPTIONS writes its profile
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

// ------------------------------------------------------------------------------------------- the load and the table

async function measure() {
  const { loadAmount, startServiceOnFreshDatabase, yardstickScenarios, serviceNode, startScriptArgs } = await import('./sandbox-project.mjs');
  const autocannon = need('autocannon');
  const pg = need('pg');
  const quick = process.argv.includes('--quick');
  // --instructions: counts instead of CPU time (see the head of this file)
  const INSTR = process.argv.includes('--instructions');
  const WARMUP = Number(arg('warmup', String(WARMUP_REQUESTS)));
  const REQUESTS = Number(arg('requests', String(ROUND_REQUESTS)));
  const REWARM = Number(arg('rewarm', '1000'));
  // valgrind names its pipes after the HOST its process saw: every server here gets this one
  const HOST = '127.0.0.1';
  const works = [];
  const workFor = () => {
    const work = mkdtempSync(join(tmpdir(), 'bench-ladder-callgrind-'));
    works.push(work);
    return work;
  };
  const underCallgrind = (work) => ['valgrind', ...callgrindArgs(work, ['--instr-atstart=no'])];
  const RATE = Number(arg('rate', '1000'));
  const ROUNDS = Number(arg('rounds', INSTR ? '3' : '5'));
  const DURATION = Number(arg('duration', quick ? '2' : '6'));
  const WARM = quick ? 1 : 2;
  const only = arg('only')?.split(',');
  const rungs = RUNGS.filter((r) => !only || only.includes(r.name));
  const PG = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432';
  const psql = (sql) => execFileSync('psql', [`${PG}/postgres`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();
  const say = (line) => process.stderr.write(`${line}\n`);
  const started = { at: new Date().toISOString(), load: loadavg() };

  // the yardstick's environment; one SECRETS_KEY for the service and the rungs that open its database
  const env = { LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '1000000000', SECRETS_KEY: `v1:${randomBytes(32).toString('base64url')}` };
  say(`starting the service (${HERE}) …`);
  const serviceWork = INSTR && rungs.some((r) => r.name === 'service') ? workFor() : null;
  const service = await startServiceOnFreshDatabase({
    dir: HERE,
    name: 'ladder',
    env: { ...env, HOST },
    ...(serviceWork ? { wrapper: underCallgrind(serviceWork), readyWithinMs: 600_000 } : {}),
  });
  const baseDb = `bench_ladder_base_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ladder-'));
  const children = [];
  const stopAll = async () => {
    for (const c of children) c.proc.kill('SIGTERM');
    await service.stop();
    try {
      psql(`DROP DATABASE IF EXISTS ${baseDb} WITH (FORCE)`);
    } catch {
      /* gone */
    }
    rmSync(dataDir, { recursive: true, force: true });
    for (const work of works) rmSync(work, { recursive: true, force: true });
  };
  process.on('SIGINT', () => stopAll().finally(() => process.exit(130)));
  try {
    const { prepare2 } = await yardstickScenarios(service.project);
    // the baseline's database, with the service project's token and accounts, so one request passes both
    psql(`CREATE DATABASE ${baseDb}`);
    const baseUrl = `${PG}/${baseDb}`;
    const { initDatabase } = await import(pathToFileURL(join(YARDSTICK, 'baseline.mjs')).href);
    const seed = await initDatabase(baseUrl);
    const token = service.project.headers.authorization.slice('Bearer '.length);
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query("INSERT INTO tokens (token_hash, org_id, app_id, environment) VALUES ($1, $2, $3, 'sandbox')", [
      createHash('sha256').update(token).digest(),
      seed.organization_id,
      seed.app_id,
    ]);
    for (const [i, id] of service.project.accounts.entries()) {
      await c.query('INSERT INTO accounts (id, org_id, number, name) VALUES ($1, $2, $3, $4)', [
        id,
        seed.organization_id,
        String(5000 + i),
        `Service account ${i}`,
      ]);
    }
    await c.end();

    const node = serviceNode(HERE);
    const flags = startScriptArgs(join(HERE, 'package.json')).slice(0, -1);
    for (const rung of rungs) {
      if (rung.name === 'service') {
        children.push({ rung, proc: service.proc, origin: new URL(service.project.base).origin, work: serviceWork });
        continue;
      }
      const work = INSTR ? workFor() : null;
      const command = [...(work ? underCallgrind(work) : []), node, ...flags, join(HERE, 'bench/ladder.mjs'), '--serve', rung.name, '--yardstick', YARDSTICK];
      const proc = spawn(command[0], command.slice(1), {
        cwd: HERE,
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        env: {
          ...process.env,
          ...env,
          ...(process.env.LADDER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.LADDER_NODE_OPTIONS } : {}),
          DATABASE_URL: service.databaseUrl,
          BASELINE_URL: baseUrl,
          DATA_DIR: dataDir,
          PORT: '0',
          CONSOLE_PORT: '0',
          HOST,
        },
      });
      const port = await new Promise((ok, fail) => {
        proc.once('message', (m) => ok(m.port));
        proc.once('exit', (code) => fail(new Error(`rung ${rung.name} exited ${code}`)));
      });
      children.push({ rung, proc, origin: `http://127.0.0.1:${port}`, work });
    }
    say(
      `${children.length} rungs up; ${INSTR ? `instructions: ${WARMUP} + 500 warm-up requests, ${ROUNDS} rounds of ${REQUESTS}` : `${RATE} req/s, ${ROUNDS} rounds of ${DURATION} s (+${WARM} s warm-up)`}, Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );

    const ticks = (pid) => {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(f[11]) + Number(f[12]);
    };
    const load = async (c, seconds) => autocannon({ url: c.origin, connections: 16, duration: seconds, overallRate: RATE, requests: [prepare2.request] });
    /** --instructions: `amount` prepares as fast as the server under callgrind answers them; each must be 200 */
    const loadPrepares = (c, amount) => loadAmount(c.origin, prepare2, amount);
    // every rung must answer the yardstick's prepare as it does: 200, a valid journal
    for (const c of children) {
      const res = await fetch(`${c.origin}${prepare2.request.path}`, { method: 'POST', headers: prepare2.request.headers, body: prepare2.request.body });
      const body = await res.text();
      if (res.status !== 200 || !body.includes('"valid":true')) throw new Error(`rung ${c.rung.name} answered ${res.status} ${body.slice(0, 300)}`);
      if (!INSTR) await load(c, WARM * 2);
      else {
        await warmThenInstrument(c.work, c.proc.pid, HOST, (amount) => loadPrepares(c, amount), WARMUP);
        say(`  ${c.rung.name}: warm, instrumentation on`);
      }
    }
    // what each server spends with no request at all (timers, background jobs), all rungs in one idle window:
    // at a fixed rate this much of each rung's CPU per request is not the request's (idle µs/s ÷ rate)
    // (under callgrind a server's idle timers are not worth the wait: the column reads 0)
    const IDLE = INSTR ? 0 : quick ? 5 : 10;
    const idleBefore = children.map((c) => ticks(c.proc.pid));
    await new Promise((r) => setTimeout(r, IDLE * 1000));
    const idle = Object.fromEntries(children.map((c, i) => [c.rung.name, IDLE ? ((ticks(c.proc.pid) - idleBefore[i]) * 10_000) / IDLE : 0]));
    const rounds = Object.fromEntries(children.map((c) => [c.rung.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of round % 2 ? [...children].reverse() : children) {
        if (INSTR) {
          // a rung that waited idle while the others were counted compiles again in its next requests (the fifth and
          // sixth sittings' first rounds, bench/RESULTS.md): those go uncounted, before the round
          if (REWARM > 0) await loadPrepares(c, REWARM);
          // the program's instructions (V8's collector and compilers left out: callgrind.mjs, countOf) are the figure
          const count = await countOf(c.work, c.proc.pid, () => loadPrepares(c, REQUESTS), HOST);
          const k = (x) => x / REQUESTS / 1000;
          rounds[c.rung.name].push({ cpu: k(count.program), total: k(count.total), rps: NaN, p99: NaN });
          say(
            `  round ${round + 1} ${c.rung.name.padEnd(19)} ${k(count.program).toFixed(1).padStart(7)} k instructions/req (total ${k(count.total).toFixed(0)}k: gc ${k(count.gc).toFixed(0)}k, compilers ${k(count.compile).toFixed(0)}k)`,
          );
          continue;
        }
        await load(c, WARM);
        const before = ticks(c.proc.pid);
        const r = await load(c, DURATION);
        const cpu = ((ticks(c.proc.pid) - before) * 10_000) / r.requests.total;
        const ok = r.statusCodeStats?.['200']?.count ?? 0;
        if (ok !== r.requests.total || r.errors) throw new Error(`rung ${c.rung.name}: ${r.requests.total - ok} answers not 200, ${r.errors} errors`);
        rounds[c.rung.name].push({ cpu, rps: r.requests.total / DURATION, p99: r.latency.p99 });
        say(
          `  round ${round + 1} ${c.rung.name.padEnd(19)} ${cpu.toFixed(1).padStart(6)} µs/req  ${(r.requests.total / DURATION).toFixed(0)} req/s  p99 ${r.latency.p99} ms`,
        );
      }
    }
    const median = (xs) => {
      const s = [...xs].sort((x, y) => x - y);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const table = children.map((c, i) => {
      const cpus = rounds[c.rung.name].map((x) => x.cpu);
      return {
        rung: c.rung.name,
        what: c.rung.what,
        median: median(cpus),
        min: Math.min(...cpus),
        max: Math.max(...cpus),
        rounds: cpus,
        totals: rounds[c.rung.name].map((x) => x.total),
        idle_us_per_s: idle[c.rung.name],
        rps: median(rounds[c.rung.name].map((x) => x.rps)),
        p99: median(rounds[c.rung.name].map((x) => x.p99)),
        i,
      };
    });
    // the step from the rung below, per round (the two were loaded one after the other, so the machine's drift
    // mostly cancels), then its median and spread over the rounds
    table.forEach((row, i) => {
      row.delta = i === 0 ? null : row.median - table[i - 1].median;
      row.steps = i === 0 ? null : row.rounds.map((cpu, r) => cpu - table[i - 1].rounds[r]);
      row.step = i === 0 ? null : median(row.steps);
      // --instructions: the step between the two rungs' least rounds, their steadiest figures
      row.leastStep = i === 0 ? null : row.min - table[i - 1].min;
    });
    const finished = { at: new Date().toISOString(), load: loadavg() };
    const commit = execFileSync('git', ['-C', HERE, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const f = (x) => (x === null ? '' : `${x >= 0 && x !== null ? '+' : ''}${x.toFixed(1)}`);
    const out = INSTR
      ? [
          `ladder by instructions ${started.at} – ${finished.at}, commit ${commit}, Node ${nodeVersion} ${flags.join(' ')}, under callgrind: ${WARMUP} + 500 warm-up requests, ${ROUNDS} rounds of ${REQUESTS} prepares (4 connections)`,
          '',
          `| rung | program: k instructions/req, least round | rounds | Δ least | Δ per round: median (min…max) | total with collector and compilers, rounds | adds |`,
          '|---|---:|---:|---:|---:|---:|---|',
          ...table.map(
            (r) =>
              `| ${r.rung} | ${r.min.toFixed(1)} | ${r.rounds.map((x) => x.toFixed(0)).join(' · ')} | ${f(r.leastStep)} | ${r.step === null ? '' : `${f(r.step)} (${f(Math.min(...r.steps))}…${f(Math.max(...r.steps))})`} | ${r.totals.map((x) => x.toFixed(0)).join(' · ')} | ${r.what} |`,
          ),
        ]
      : [
          `ladder ${started.at} – ${finished.at}, commit ${commit}, Node ${nodeVersion} ${flags.join(' ')}, ${RATE} req/s, ${ROUNDS} rounds × ${DURATION} s, load average ${started.load.map((x) => x.toFixed(2)).join(' ')} → ${finished.load.map((x) => x.toFixed(2)).join(' ')}`,
          '',
          `| rung | server CPU µs/req (median) | spread (min–max) | Δ medians | Δ per round: median (min–max) | idle CPU µs/s (÷ rate = µs/req) | req/s | p99 ms | adds |`,
          '|---|---:|---:|---:|---:|---:|---:|---:|---|',
          ...table.map(
            (r) =>
              `| ${r.rung} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)}–${r.max.toFixed(1)} | ${f(r.delta)} | ${r.step === null ? '' : `${f(r.step)} (${f(Math.min(...r.steps))}…${f(Math.max(...r.steps))})`} | ${r.idle_us_per_s.toFixed(0)} (${(r.idle_us_per_s / RATE).toFixed(1)}) | ${r.rps.toFixed(0)} | ${r.p99} | ${r.what} |`,
          ),
        ];
    if (INSTR) {
      const largestByLeast = table
        .filter((r) => r.leastStep !== null)
        .sort((a, b) => b.leastStep - a.leastStep)
        .slice(0, 3);
      out.push('', `largest rungs (step between least rounds): ${largestByLeast.map((r) => `${r.rung} ${f(r.leastStep)}k instructions`).join(', ')}`);
    }
    const largest = table
      .filter((r) => r.step !== null)
      .sort((a, b) => b.step - a.step)
      .slice(0, 3);
    out.push('', `largest rungs (median step per round): ${largest.map((r) => `${r.rung} ${f(r.step)} ${INSTR ? 'k instructions' : 'µs'}`).join(', ')}`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (arg('json'))
      writeFileSync(
        arg('json'),
        JSON.stringify(
          {
            started,
            finished,
            commit,
            node: nodeVersion,
            flags,
            unit: INSTR ? 'k instructions/req' : 'cpu µs/req',
            rate: RATE,
            rounds: ROUNDS,
            duration: DURATION,
            table,
          },
          null,
          2,
        ),
      );
  } finally {
    await stopAll();
  }
}

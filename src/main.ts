// FIRST, before any module cuts a Buffer slab (docs/adr/0013, trick 3; buffer-pool.spec.ts holds the order)
import './shared/performance/small-buffer-pool';
import 'reflect-metadata';
import { createApplications } from './bootstrap';
import { emailLines, firstStartSandbox } from './first-start';
import { type AppConfig, ConfigError, loadConfig } from './shared/config/app-config';
import { isServiceUnavailable } from './shared/database/database-failure';
import { openWaitingListener, type WaitingListener } from './shared/http/waiting-listener';
import { secureDataDir } from './shared/config/data-dir';
import { lockDataDir } from './shared/runtime/data-dir-lock';
import { baseUrl } from './shared/http/partner-paths';

/** Boots the partner and console listeners; stops gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // CONTRACT §2: one process per DATA_DIR, decided before the store or any file in it is opened
  secureDataDir(config.dataDir);
  await lockDataDir(config.dataDir);
  const apps = await createApplicationsWhenWritable(config);
  // before listening: a stop that comes while the start banner is made (the first start's sandbox) is graceful too,
  // exit 0 (CONTRACT §3), never the default action of the signal
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: finishing in-flight requests and stopping\n`);
    // CONTRACT §3: exit 0 within SHUTDOWN_GRACE_SECONDS. apps.stop() answers every request within it;
    // this only bounds what follows (closing the stores), should the database hang.
    const force = setTimeout(
      () => {
        process.stderr.write('stop: grace ran out while closing; exiting\n');
        process.exit(0);
      },
      Math.max(config.shutdownGraceSeconds * 1000 - 200, 100),
    );
    force.unref();
    apps.stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`stop: ${err.message}\n`);
        process.exit(0);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // the console first: once the partner listener answers GET /health/ready, the whole instance is up (a
  // test that reached the console as soon as the partner was ready was refused on a loaded machine)
  if (apps.console) await apps.console.listen(config.consolePort, config.consoleHost);
  await apps.partner.listen(config.port, config.host);

  const out: string[] = [];
  out.push(`Partner API listening on ${config.host}:${config.port} (Node ${process.version})`);
  out.push(`  production base URL: ${baseUrl(config.publicOrigin, 'production')}`);
  out.push(`  sandbox base URL:    ${baseUrl(config.publicOrigin, 'sandbox')}`);
  out.push(`  OpenAPI: ${config.publicOrigin}/docs`);
  if (apps.console) out.push(`Console API listening on http://${config.consoleHost}:${config.consolePort}/console/v1`);
  // generated secrets go to a terminal only: stdout of a container or a service manager is a log stream
  const showSecrets = process.stdout.isTTY === true;
  if (apps.generatedConsoleApiKey && showSecrets) {
    out.push(`  console API key (generated, shown once; kept in ${config.dataDir}/console-api-key):`);
    out.push(`    ${apps.generatedConsoleApiKey}`);
  } else if (apps.generatedConsoleApiKey) {
    out.push(`  console API key: generated into ${config.dataDir}/console-api-key (mode 0600; not printed, stdout is not a terminal)`);
  }
  out.push(...(await firstStartSandbox(config, apps.partner, showSecrets)));
  out.push(...emailLines(config));
  // Operator-facing start-up banner on stdout, deliberately not in the JSON log stream.
  process.stdout.write(`${out.join('\n')}\n`);
}

const RETRY_START_MS = 2_000;
const SAY_EVERY_MS = 60_000;

/**
 * Starts once a database host takes writes (CONTRACT §16: a URI whose hosts are all standbys keeps
 * readiness 503 until one is promoted). Until then the partner port answers 503 with Retry-After
 * (waiting-listener.ts), the start is retried every 2 s and the reason said at most once a minute.
 * Only an unreachable or read-only database is waited for; any other failure still stops the start.
 */
async function createApplicationsWhenWritable(config: AppConfig): Promise<Awaited<ReturnType<typeof createApplications>>> {
  let waiting: WaitingListener | null = null;
  let saidAt = Number.NEGATIVE_INFINITY;
  // nothing is in flight while waiting: a stop then is immediate, exit 0 (CONTRACT §3)
  const stopWaiting = () => process.exit(0);
  // the waiting listener closed first, its stop handlers after: main() installs its own right after this returns
  const done = async () => {
    await waiting?.close();
    process.off('SIGTERM', stopWaiting).off('SIGINT', stopWaiting);
  };
  for (;;) {
    try {
      const apps = await createApplications(config);
      await done();
      return apps;
    } catch (err) {
      if (config.database.kind !== 'postgres' || !isServiceUnavailable(err)) {
        await done();
        throw err;
      }
      if (!waiting) {
        waiting = await openWaitingListener(config.host, config.port);
        process.on('SIGTERM', stopWaiting).on('SIGINT', stopWaiting);
      }
      if (Date.now() - saidAt >= SAY_EVERY_MS) {
        saidAt = Date.now();
        process.stderr.write(
          `waiting for a database host that accepts writes (${(err as Error).message.slice(0, 300)}); readiness is 503, retrying every ${RETRY_START_MS / 1000} s\n`,
        );
      }
      await new Promise((r) => setTimeout(r, RETRY_START_MS));
    }
  }
}

main().catch((err: Error) => {
  process.stderr.write(`start failed: ${err.message}\n`);
  process.exit(1);
});

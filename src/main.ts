import './shared/runtime/small-buffer-pool';
import 'reflect-metadata';
import { createApplications } from './bootstrap';
import { firstStartSandbox } from './first-start';
import { ConfigError, loadConfig } from './shared/config/app-config';
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
  const apps = await createApplications(config);
  await apps.partner.listen(config.port, config.host);
  if (apps.console) await apps.console.listen(config.consolePort, config.consoleHost);

  const out: string[] = [];
  out.push(`Partner API listening on ${config.host}:${config.port} (Node ${process.version})`);
  out.push(`  production base URL: ${baseUrl(config.publicOrigin, 'production')}`);
  out.push(`  sandbox base URL:    ${baseUrl(config.publicOrigin, 'sandbox')}`);
  out.push(`  OpenAPI: ${config.publicOrigin}/docs`);
  if (apps.console) out.push(`Console API listening on http://${config.consoleHost}:${config.consolePort}/console/v1`);
  if (apps.generatedConsoleApiKey) {
    out.push(`  console API key (generated, shown once; kept in ${config.dataDir}/console-api-key):`);
    out.push(`    ${apps.generatedConsoleApiKey}`);
  }
  out.push(...(await firstStartSandbox(config, apps.partner)));
  // Operator-facing start-up banner on stdout, deliberately not in the JSON log stream.
  process.stdout.write(`${out.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: finishing in-flight requests and stopping\n`);
    // CONTRACT §3: exit 0 within SHUTDOWN_GRACE_SECONDS. apps.stop() answers every request within it;
    // this only bounds what follows (closing the stores), should the database hang.
    const force = setTimeout(() => {
      process.stderr.write('stop: grace ran out while closing; exiting\n');
      process.exit(0);
    }, Math.max(config.shutdownGraceSeconds * 1000 - 200, 100));
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
}

main().catch((err: Error) => {
  process.stderr.write(`start failed: ${err.message}\n`);
  process.exit(1);
});

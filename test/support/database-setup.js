/**
 * Jest globalSetup of the e2e project: which store the e2e run uses, its migrated template, one PostgreSQL
 * database per jest worker, the run's Redis key prefix, and a line on stderr that names them all.
 *
 * - TEST_DATABASE=pglite forces the embedded store: every test app's in-memory PGlite starts from one
 *   data directory migrated here and dumped to a file (PARTNER_TEST_PGLITE_TEMPLATE);
 * - else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres when that server answers:
 *   a database `<name>_<pid>_template` is migrated here and each worker's `<name>_<pid>_w<N>` is created
 *   from it (CREATE DATABASE … TEMPLATE); all are dropped in database-teardown.js (and by the next run if
 *   this one was killed);
 * - else PGlite, with a note. TEST_DATABASE=postgres or a TEST_DATABASE_URL that does not answer fails;
 *   a TEST_DATABASE_URL naming a database that does not exist yet on a server that answers creates it.
 * - Redis: TEST_REDIS_URL, else redis://127.0.0.1:6379, under a key prefix of this run only
 *   (PARTNER_TEST_REDIS_PREFIX, `partner-api-test-<pid>-<random>:`): the suite never reads or deletes a
 *   key it did not write; database-teardown.js deletes the run's keys.
 *
 * The choice reaches the workers as PARTNER_TEST_DB (`pglite` or a URL template with `{worker}`);
 * worker-database.js turns it into TEST_DATABASE_URL for each test file.
 */
const { randomBytes } = require('node:crypto');
const { mkdtempSync } = require('node:fs');
const { tmpdir, availableParallelism } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = 'redis://127.0.0.1:6379';

/** The run's own Redis key prefix, and the part of the start line that names Redis. */
function chooseRedis() {
  const url = process.env.TEST_REDIS_URL || REDIS;
  process.env.TEST_REDIS_URL = url;
  process.env.PARTNER_TEST_REDIS_PREFIX = `partner-api-test-${process.pid}-${randomBytes(3).toString('hex')}:`;
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return `Redis ${shown.toString()}${process.env.TEST_REDIS_URL === REDIS ? '' : ' (TEST_REDIS_URL)'}, keys under ${process.env.PARTNER_TEST_REDIS_PREFIX}`;
}

/** Migrates PGlite once and dumps it; every in-memory test app loads the dump (test-app.ts). */
async function pgliteTemplate() {
  const dir = mkdtempSync(join(tmpdir(), `partner-api-e2e-${process.pid}-`));
  const file = join(dir, 'pglite-migrated.tar');
  const started = Date.now();
  await require('./migrated-template').dumpMigratedPGlite(file);
  process.env.PARTNER_TEST_PGLITE_TEMPLATE = file;
  process.env.PARTNER_TEST_TMP = dir;
  return `migrated once in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

function workersOf(globalConfig) {
  return `${globalConfig.maxWorkers || 1} worker(s) on ${availableParallelism()} core(s)`;
}

async function connect(url, timeoutMs) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  await client.connect();
  return client;
}

/**
 * Connects to `url`; when its database does not exist yet (SQLSTATE 3D000), creates it from the server's
 * `postgres` database first, so that `TEST_DATABASE_URL=postgres://…/any_new_name` just works. When it
 * cannot be created, the error says in one line how to create it by hand.
 */
async function connectOrCreate(url, timeoutMs) {
  try {
    return await connect(url, timeoutMs);
  } catch (err) {
    if (err.code !== '3D000') throw err;
    const target = new URL(url);
    const name = decodeURIComponent(target.pathname.slice(1));
    const maintenance = new URL(url);
    maintenance.pathname = '/postgres';
    const admin = await connect(maintenance.toString(), timeoutMs);
    try {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      process.stderr.write(`\ne2e store: created the database ${name} that TEST_DATABASE_URL names\n`);
    } catch (createErr) {
      if (createErr.code !== '42P04') {
        const hint = new Error(
          `TEST_DATABASE_URL names database ${name}, which does not exist and could not be created (${createErr.message}): create it as a role that may, e.g.  createdb -h ${target.hostname} -p ${target.port || 5432} -U postgres ${name}`,
        );
        hint.oneLine = true;
        throw hint;
      }
    } finally {
      await admin.end();
    }
    return connect(url, timeoutMs);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

module.exports = async function databaseSetup(globalConfig) {
  const choice = process.env.TEST_DATABASE ?? '';
  if (!['', 'pglite', 'postgres'].includes(choice)) throw new Error(`TEST_DATABASE must be pglite or postgres, got "${choice}"`);
  const redis = chooseRedis();
  if (choice === 'pglite') {
    process.env.PARTNER_TEST_DB = 'pglite';
    const template = await pgliteTemplate();
    process.stderr.write(
      `\ne2e: PGlite in memory per test app (TEST_DATABASE=pglite; ${template}; PostgreSQL-only tests are reported as skipped); ${redis}; ${workersOf(globalConfig)}\n`,
    );
    return;
  }
  const explicit = process.env.TEST_DATABASE_URL;
  const url = explicit || LOCAL;
  let admin;
  try {
    admin = await connectOrCreate(url, explicit || choice === 'postgres' ? 10_000 : 1_500);
  } catch (err) {
    if (err.oneLine) throw err;
    if (explicit || choice === 'postgres') throw new Error(`TEST_DATABASE_URL / PostgreSQL does not answer (${url}): ${err.message}`);
    process.env.PARTNER_TEST_DB = 'pglite';
    const template = await pgliteTemplate();
    process.stderr.write(
      `\ne2e: PGlite in memory per test app (no PostgreSQL at 127.0.0.1:5432: ${err.message}; ${template}; PostgreSQL-only tests are skipped); ${redis}; ${workersOf(globalConfig)}\n`,
    );
    return;
  }
  try {
    const base = new URL(url);
    const stem = `${decodeURIComponent(base.pathname.slice(1)) || 'postgres'}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
    const family = `${stem === 'postgres' ? 'partner_test' : stem}`;
    // databases left by a killed run of this family (its pid is gone)
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname ~ $1`, [`^${family}_[0-9]+_(w[0-9]+|template)$`]);
    for (const { datname } of rows) {
      const pid = Number(/_(\d+)_(w\d+|template)$/.exec(datname)[1]);
      if (!alive(pid)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
    const workers = Math.max(1, globalConfig.maxWorkers || 1);
    const names = Array.from({ length: workers }, (_, i) => `${family}_${process.pid}_w${i + 1}`);
    const templateName = `${family}_${process.pid}_template`;
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${templateName}`;
    // the teardown drops what is listed, even when this setup stops half-way
    process.env.PARTNER_TEST_DB_ADMIN = url;
    process.env.PARTNER_TEST_DB_NAMES = [templateName, ...names].join(',');
    const started = Date.now();
    await admin.query(`CREATE DATABASE "${templateName}"`);
    await require('./migrated-template').migratePostgresTemplate(templateUrl.toString(), admin);
    for (const name of names) await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName}"`);
    const template = new URL(url);
    template.pathname = `/${family}_${process.pid}_w{worker}`;
    process.env.PARTNER_TEST_DB = template.toString().replace('%7Bworker%7D', '{worker}');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `\ne2e: PostgreSQL ${base.host}${explicit ? ' (TEST_DATABASE_URL)' : ''}, databases ${family}_${process.pid}_w1…w${workers}, copies of ${templateName} (migrated once in ${seconds} s); ${redis}; ${workersOf(globalConfig)}\n`,
    );
  } finally {
    await admin.end();
  }
};

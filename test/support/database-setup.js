/**
 * Jest globalSetup of the e2e project: which store the e2e run uses, and one PostgreSQL database per
 * jest worker.
 *
 * - TEST_DATABASE=pglite forces the embedded store (in-memory PGlite per test file);
 * - else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres when that server answers:
 *   a database `<name>_<pid>_w<N>` per worker is created here and dropped in database-teardown.js
 *   (and by the next run if this one was killed);
 * - else PGlite, with a note. TEST_DATABASE=postgres or a TEST_DATABASE_URL that does not answer fails;
 *   a TEST_DATABASE_URL naming a database that does not exist yet on a server that answers creates it.
 *
 * The choice reaches the workers as PARTNER_TEST_DB (`pglite` or a URL template with `{worker}`);
 * worker-database.js turns it into TEST_DATABASE_URL for each test file.
 */
const { Client } = require('pg');

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';

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
  if (choice === 'pglite') {
    process.env.PARTNER_TEST_DB = 'pglite';
    process.stderr.write('\ne2e store: PGlite (TEST_DATABASE=pglite; PostgreSQL-only tests are reported as skipped)\n');
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
    process.stderr.write(`\ne2e store: PGlite (no PostgreSQL at 127.0.0.1:5432: ${err.message}; PostgreSQL-only tests are skipped)\n`);
    return;
  }
  try {
    const base = new URL(url);
    const stem = `${decodeURIComponent(base.pathname.slice(1)) || 'postgres'}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
    const family = `${stem === 'postgres' ? 'partner_test' : stem}`;
    // databases left by a killed run of this family (its pid is gone)
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname ~ $1`, [`^${family}_[0-9]+_w[0-9]+$`]);
    for (const { datname } of rows) {
      const pid = Number(/_(\d+)_w\d+$/.exec(datname)[1]);
      if (!alive(pid)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
    const workers = Math.max(1, globalConfig.maxWorkers || 1);
    const names = Array.from({ length: workers }, (_, i) => `${family}_${process.pid}_w${i + 1}`);
    for (const name of names) await admin.query(`CREATE DATABASE "${name}"`);
    const template = new URL(url);
    template.pathname = `/${family}_${process.pid}_w{worker}`;
    process.env.PARTNER_TEST_DB = template.toString().replace('%7Bworker%7D', '{worker}');
    process.env.PARTNER_TEST_DB_ADMIN = url;
    process.env.PARTNER_TEST_DB_NAMES = names.join(',');
    process.stderr.write(`\ne2e store: PostgreSQL ${base.host}, ${workers} database(s) ${family}_${process.pid}_w1…\n`);
  } finally {
    await admin.end();
  }
};

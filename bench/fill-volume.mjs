// Fills a migrated database of the service with a realistic volume (issue 25, item 3), generated inside
// PostgreSQL (INSERT … SELECT over generate_series, in chunks, synchronous_commit off): at --scale 1
//   10,000 organizations (sandbox, one app, two accounts, one webhook endpoint each),
//   1,000,000 products and 1,000,000 journal entries with 2,000,000 lines (vouchers 1…n per organization),
//   2,000,000 idempotency records inside the retention (one per write, created in the last 20 h),
//   2,000,000 receipts, 2,000,000 webhook events, each with a delivery and an attempt (delivered).
// Rows are shaped as the service writes them (bench/RESULTS.md "Volume"); ids are md5-derived, so a
// row's references need no join. Then VACUUM ANALYZE and a size report per table (bytes per row).
//
//   npm run migrate   # with DATABASE_URL=postgres://…/yourdb (or start the service on it once)
//   node bench/fill-volume.mjs --database postgres://postgres@127.0.0.1:5432/yourdb [--scale 0.1]
//
// Loopback only; never run it on a database that serves anyone.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const url = arg('database', process.env.DATABASE_URL);
const scale = Number(arg('scale', '1'));
if (!url || !(scale > 0)) {
  process.stderr.write('usage: node bench/fill-volume.mjs --database postgres://…/db [--scale 1]\n');
  process.exit(2);
}
const host = new URL(url).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  process.stderr.write(`refusing a non-loopback database host ${host}\n`);
  process.exit(2);
}

// --webhooks-only: (re)fill just the three webhook tables of a database filled before (their rows are replaced)
const WEBHOOKS_ONLY = process.argv.includes('--webhooks-only');
const ORGS = Math.max(10, Math.round(10_000 * scale));
const PRODUCTS = Math.round(1_000_000 * scale);
const ENTRIES = Math.round(1_000_000 * scale);
const CHUNK = 100_000;

const client = new pg.Client({ connectionString: url, application_name: 'fill-volume' });
await client.connect();
await client.query(`SET synchronous_commit = off`);
await client.query(`SET maintenance_work_mem = '256MB'`);
const { rows: existing } = await client.query(`SELECT count(*)::int AS n FROM organizations WHERE name LIKE 'Fill org %'`);
if (existing[0].n > 0 && !WEBHOOKS_ONLY) {
  process.stderr.write('this database is filled already (organizations "Fill org …"); use a new one\n');
  process.exit(2);
}

const started = Date.now();
const timings = [];
async function step(name, total, sql) {
  const t = Date.now();
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    await client.query(sql, [from, to]);
    process.stdout.write(`\r${name}: ${to.toLocaleString('en')} / ${total.toLocaleString('en')}   `);
  }
  const s = (Date.now() - t) / 1000;
  timings.push({ name, rows: total, seconds: s });
  process.stdout.write(`\r${name}: ${total.toLocaleString('en')} rows in ${s.toFixed(1)} s (${Math.round(total / s).toLocaleString('en')}/s)\n`);
}

// an organization's objects, by its number o (1…ORGS)
const org = (o) => `md5('org' || ${o})::uuid`;
const app = (o) => `md5('app' || ${o})::uuid`;
const acc = (o, k) => `md5('acc${k}-' || ${o})::uuid`;
// write i (1…) belongs to organization ((i - 1) % ORGS) + 1, its number within it is ((i - 1) / ORGS) + 1
const O = `((i - 1) % ${ORGS} + 1)`;
const N = `((i - 1) / ${ORGS} + 1)`;
// products are writes 1…PRODUCTS, postings PRODUCTS+1…PRODUCTS+ENTRIES: their operation ids, keys, events
const when = `now() - ((i % 525600) || ' minutes')::interval`; // spread over the last year
// webhook events, deliveries and attempts inside WEBHOOK_RETENTION_DAYS (30): spread over the last 29 days, so the
// service's retention purge finds no backlog when it starts (an older spread had it purging 1.8 M events first)
const recent = `now() - ((i % 41760) || ' minutes')::interval`;

if (!WEBHOOKS_ONLY) {
  await step('apps', ORGS, `INSERT INTO apps (id, name) SELECT ${app('i')}, 'Fill app ' || i FROM generate_series($1::int, $2::int) i`);
  await step(
    'organizations',
    ORGS,
    `INSERT INTO organizations (id, name, environment) SELECT ${org('i')}, 'Fill org ' || i, 'sandbox' FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'accounts (2 per organization)',
    ORGS,
    `INSERT INTO accounts (organization_id, id, number, name)
  SELECT ${org('i')}, ${acc('i', 1)}, '1000', 'Kasse' FROM generate_series($1::int, $2::int) i
  UNION ALL SELECT ${org('i')}, ${acc('i', 2)}, '2000', 'Salg' FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'webhook_endpoints',
    ORGS,
    `INSERT INTO webhook_endpoints (id, app_id, environment, url, secret)
  SELECT md5('ep' || i)::uuid, ${app('i')}, 'sandbox', 'https://hooks.example.com/' || i, 'sealed-placeholder' FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'products',
    PRODUCTS,
    `INSERT INTO products (organization_id, id, environment, code, name, kind, unit, app_id, operation_id, created_at)
  SELECT ${org(O)}, md5('p' || i)::uuid, 'sandbox', 'P-' || ${N}, 'Vare ' || i, 'services', 'stk', ${app(O)}, md5('op' || i)::uuid, ${when}
  FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'journal_entries',
    ENTRIES,
    `INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date, currency, app_id, operation_id, created_at)
  SELECT ${org(O)}, md5('j' || i)::uuid, 'sandbox', 2026, ${N}, date '2026-01-01' + (i % 300), 'DKK', ${app(O)}, md5('op' || (${PRODUCTS} + i))::uuid, ${when}
  FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'journal_lines (2 per entry)',
    ENTRIES,
    `INSERT INTO journal_lines (organization_id, entry_id, line_no, account_id, debit_minor, credit_minor, dimension_refs)
  SELECT ${org(O)}, md5('j' || i)::uuid, 1, ${acc(O, 1)}, 12500, 0, '[]'::jsonb FROM generate_series($1::int, $2::int) i
  UNION ALL SELECT ${org(O)}, md5('j' || i)::uuid, 2, ${acc(O, 2)}, 0, 12500, '[]'::jsonb FROM generate_series($1::int, $2::int) i`,
  );
  await step(
    'voucher_counters',
    ORGS,
    `INSERT INTO voucher_counters (organization_id, year, last_number)
  SELECT ${org('i')}, 2026, ${ENTRIES} / ${ORGS} + (CASE WHEN i <= ${ENTRIES} % ${ORGS} THEN 1 ELSE 0 END) FROM generate_series($1::int, $2::int) i`,
  );
}
const WRITES = PRODUCTS + ENTRIES;
const isProduct = `i <= ${PRODUCTS}`;
const resource = `CASE WHEN ${isProduct} THEN md5('p' || i)::uuid ELSE md5('j' || (i - ${PRODUCTS}))::uuid END`;
if (!WEBHOOKS_ONLY)
  await step(
    'idempotency_records',
    WRITES,
    `INSERT INTO idempotency_records (organization_id, environment, app_id, idempotency_key, operation, fingerprint, response, created_at)
  SELECT ${org(O)}, 'sandbox', ${app(O)}, 'fill-' || i, CASE WHEN ${isProduct} THEN 'product.create' ELSE 'journal.post' END,
    encode(sha256(('f' || i)::bytea), 'hex'),
    jsonb_build_object('id', ${resource}, CASE WHEN ${isProduct} THEN 'created' ELSE 'posted' END, true, 'replayed', false, 'environment', 'sandbox', 'operation_id', md5('op' || i)::uuid),
    now() - ((i % 72000) || ' seconds')::interval
  FROM generate_series($1::int, $2::int) i`,
  );
if (!WEBHOOKS_ONLY)
  await step(
    'operation_receipts',
    WRITES,
    `INSERT INTO operation_receipts (organization_id, id, environment, app_id, kind, status, resource_type, resource_id, completed_at)
  SELECT ${org(O)}, md5('op' || i)::uuid, 'sandbox', ${app(O)}, CASE WHEN ${isProduct} THEN 'product.create' ELSE 'journal.post' END, 'completed',
    CASE WHEN ${isProduct} THEN 'product' ELSE 'journal_entry' END, ${resource}, ${when}
  FROM generate_series($1::int, $2::int) i`,
  );
if (WEBHOOKS_ONLY) await client.query('TRUNCATE webhook_attempts, webhook_deliveries, webhook_outbox');
await step(
  'webhook_outbox',
  WRITES,
  `INSERT INTO webhook_outbox (organization_id, id, environment, app_id, event_type, body, created_at, dispatched_at)
  SELECT ${org(O)}, md5('ev' || i)::uuid, 'sandbox', ${app(O)}, 'operation.completed',
    json_build_object('type', 'operation.completed', 'timestamp', ${recent}, 'data', json_build_object('operation_id', md5('op' || i)::uuid,
      'kind', CASE WHEN ${isProduct} THEN 'product.create' ELSE 'journal.post' END, 'status', 'completed',
      'resource', json_build_object('type', CASE WHEN ${isProduct} THEN 'product' ELSE 'journal_entry' END, 'id', ${resource}),
      'completed_at', ${recent}, 'environment', 'sandbox'))::text,
    ${recent}, ${recent}
  FROM generate_series($1::int, $2::int) i`,
);
await step(
  'webhook_deliveries',
  WRITES,
  `INSERT INTO webhook_deliveries (organization_id, id, event_id, endpoint_id, attempts, next_attempt_at, delivered_at, last_status)
  SELECT ${org(O)}, md5('d' || i)::uuid, md5('ev' || i)::uuid, md5('ep' || ${O})::uuid, 1, ${recent}, ${recent}, 200
  FROM generate_series($1::int, $2::int) i`,
);
await step(
  'webhook_attempts',
  WRITES,
  `INSERT INTO webhook_attempts (organization_id, delivery_id, attempt, attempted_at, status, duration_ms)
  SELECT ${org(O)}, md5('d' || i)::uuid, 1, ${recent}, 200, 40 + i % 200
  FROM generate_series($1::int, $2::int) i`,
);

process.stdout.write('VACUUM ANALYZE …\n');
const v = Date.now();
await client.query('VACUUM ANALYZE');
process.stdout.write(`VACUUM ANALYZE in ${((Date.now() - v) / 1000).toFixed(1)} s; filled in ${((Date.now() - started) / 1000).toFixed(0)} s\n\n`);

const { rows: sizes } = await client.query(`
  SELECT c.relname AS table, c.reltuples::bigint AS rows, pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.reltuples > 0 ORDER BY pg_total_relation_size(c.oid) DESC`);
const mb = (b) => (Number(b) / 1048576).toFixed(0);
process.stdout.write('| table | rows | heap MB | indexes MB | bytes/row (heap + indexes) |\n|---|---:|---:|---:|---:|\n');
for (const s of sizes) {
  process.stdout.write(
    `| ${s.table} | ${Number(s.rows).toLocaleString('en')} | ${mb(s.heap)} | ${mb(s.indexes)} | ${Math.round((Number(s.heap) + Number(s.indexes)) / Math.max(1, Number(s.rows)))} |\n`,
  );
}
const { rows: total } = await client.query(`SELECT pg_database_size(current_database()) AS b`);
process.stdout.write(`\ndatabase: ${mb(total[0].b)} MB\n`);
await client.end();

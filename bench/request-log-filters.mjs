// CONTRACT §20 ("Request log"): does a filtered page of the developer console's request log answer within
// 500 ms with 2 M calls in the developer's own log? Runs the statement the service sends
// (PgDeveloperRepository.requestLog, from the build: npm run build) for each filter under
// EXPLAIN (ANALYZE) on a database filled by bench/request-log-filters.sql, three times each, and prints the
// PostgreSQL execution times and how the plan reads request_log.
//   node bench/request-log-filters.mjs --database postgres://postgres@127.0.0.1:5432/reqlog_scratch
// Loopback only; it only reads.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { PgDeveloperRepository } = require('../dist/src/modules/developers/infrastructure/pg-developer.repository.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const url = arg('database');
if (!url || !/@(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) throw new Error('--database postgres://…@127.0.0.1/… (loopback only)');

// the app of the fill: its production and sandbox ids, as the app page passes them
const APP_IDS = ['22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111'];
const FILTERS = {
  'no filter': {},
  'Status 5xx (none in the log)': { status: '5xx' },
  'Status 4xx': { status: '4xx' },
  'Status 2xx': { status: '2xx' },
  'Request id (one call)': { requestId: 'req-7b7d211a2107d9a4fdeadb1abfc24889' },
  'Request id (none)': { requestId: 'no-such-id' },
  'Path contains, absent': { pathContains: '/operations/' },
  'Path contains, common': { pathContains: 'journal' },
  'Path contains + Status 4xx, absent': { pathContains: '/operations/', status: '4xx' },
  'Path contains + Status 5xx': { pathContains: 'journal', status: '5xx' },
  'Path contains, absent, an Older page (before the 1,000,000th call)': { pathContains: '/operations/', before: '1000000' },
};

const client = new pg.Client({ connectionString: url });
await client.connect();
const scans = (node) => [
  ...(node['Relation Name'] === 'request_log' || node['Index Name']?.startsWith('request_log')
    ? [`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()]
    : []),
  ...(node.Plans ?? []).flatMap(scans),
];
try {
  for (const [name, filter] of Object.entries(FILTERS)) {
    const times = [];
    let reads = [];
    for (let run = 0; run < 3; run++) {
      const manager = {
        query: async (sql, params) => {
          const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
          const [{ Plan, 'Execution Time': ms }] = rows[0]['QUERY PLAN'];
          times.push(ms);
          reads = [...new Set(scans(Plan))];
          return [];
        },
      };
      await PgDeveloperRepository.prototype.requestLog.call(null, manager, APP_IDS, filter, 51);
    }
    console.log(
      `${name.padEnd(70)} ${times
        .map((t) => `${t.toFixed(1)} ms`)
        .join(', ')
        .padEnd(30)} ${reads.join('; ')}`,
    );
  }
} finally {
  await client.end();
}

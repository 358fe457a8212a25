// What the shared yardstick (../shared/bench) does not measure: RSS growth across rounds of load (after a warm-up round), and
// 20 concurrent identical creates ending in exactly one product. Starts the built service on a fresh
// PostgreSQL database; loopback only; stops everything it started.
//   node bench/service-only.mjs [--quick]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { startServiceOnFreshDatabase } from './sandbox-project.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const QUICK = process.argv.includes('--quick');
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

// as `npm start` runs it: the node flags and entry file of package.json's start script
const { proc: service, project, databaseUrl, stop } = await startServiceOnFreshDatabase({ name: 'svc_only' });
let failed = false;
try {
  const {
    base,
    headers,
    accounts: [a, b],
  } = project;
  const journal = {
    posting_date: new Date().toISOString().slice(0, 10),
    lines: [
      { account_id: a, debit_minor: 100 },
      { account_id: b, credit_minor: 100 },
    ],
  };

  const rounds = [];
  // a warm-up round first: the heap grows to its working size while the JIT settles
  await autocannon({ url: `${base}/journal/prepare`, method: 'POST', headers, body: JSON.stringify(journal), connections: 16, duration: QUICK ? 3 : 10 });
  for (let round = 1; round <= 3; round++) {
    const r = await autocannon({
      url: `${base}/journal/prepare`,
      method: 'POST',
      headers,
      body: JSON.stringify(journal),
      connections: 16,
      duration: QUICK ? 3 : 10,
    });
    rounds.push({ round, rps: Math.round(r.requests.average), non2xx: r.non2xx, rssMb: Math.round(rssMb(service.pid)) });
  }
  const growth = rounds[2].rssMb / rounds[0].rssMb;
  console.log(`prepare, 2 lines, 3 rounds: ${rounds.map((r) => `${r.rps} req/s at ${r.rssMb} MB`).join('; ')}; RSS round 3 / round 1 = ${growth.toFixed(3)}`);
  if (growth > 1.1 || rounds.some((r) => r.non2xx > 0)) failed = true;

  const code = `same-${randomBytes(4).toString('hex')}`;
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      fetch(`${base}/products`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': code },
        body: JSON.stringify({ code, name: 'Concurrent' }),
      }).then(async (res) => ({ status: res.status, body: await res.json() })),
    ),
  );
  const ids = new Set(answers.map((x) => x.body.id));
  const rows = Number(execFileSync('psql', [databaseUrl, '-qAtc', `SELECT count(*) FROM products WHERE code = '${code}'`], { encoding: 'utf8' }).trim());
  const firsts = answers.filter((x) => x.body.replayed === false).length;
  const ok = rows === 1 && ids.size === 1 && firsts === 1 && answers.every((x) => x.status === 201);
  console.log(`20 concurrent identical creates: ${rows} row, ${ids.size} id, ${firsts} first execution — ${ok ? 'exactly once' : 'WRONG'}`);
  if (!ok) failed = true;
} finally {
  await stop();
}
process.exitCode = failed ? 2 : 0;

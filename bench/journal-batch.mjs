// Batch posting against single postings (issue 44, CONTRACT §19), on a fresh PostgreSQL database: journals/s
// through 100-journal `POST /journal/batch` calls against single `POST /journal` calls, 16 connections each,
// and the time of one 100-journal batch at p50/p99 (from the batch run's latencies).
//   npm run build && npm exec -- node bench/journal-batch.mjs [--duration S]
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { startServiceOnFreshDatabase } from './sandbox-project.mjs';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 10;
const BATCH = 100;

const { project, stop } = await startServiceOnFreshDatabase({ name: 'journal-batch' });
try {
  const {
    base,
    headers,
    accounts: [a, b],
  } = project;
  const journal = (i) => ({
    posting_date: '2026-11-20',
    description: `Salg ${i}`,
    lines: [
      { account_id: a, debit_minor: 100 + i },
      { account_id: b, credit_minor: 100 + i },
    ],
  });
  const run = (path, body) =>
    autocannon({
      url: base,
      connections: 16,
      duration,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({ ...req, path: `${new URL(base).pathname}${path}`, headers: { ...headers, 'idempotency-key': randomUUID() }, body }),
        },
      ],
    });
  // a warm-up of each, then the measured runs
  await autocannon({
    url: `${base}/journal`,
    connections: 16,
    duration: 2,
    method: 'POST',
    headers: { ...headers, 'idempotency-key': 'w' },
    body: JSON.stringify(journal(0)),
  });
  const single = await run('/journal', JSON.stringify(journal(1)));
  const batch = await run('/journal/batch', JSON.stringify({ journals: Array.from({ length: BATCH }, (_, i) => journal(i)) }));
  const ok = (r) => r['2xx'];
  const singlePerSecond = ok(single) / duration;
  const batchPerSecond = (ok(batch) * BATCH) / duration;
  console.log(
    `single POST /journal: ${singlePerSecond.toFixed(0)} journals/s (${ok(single)} × 201, ${single.non2xx} other, p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms)`,
  );
  console.log(
    `POST /journal/batch of ${BATCH}: ${batchPerSecond.toFixed(0)} journals/s (${ok(batch)} × 201, ${batch.non2xx} other; one batch p50 ${batch.latency.p50} ms, p99 ${batch.latency.p99} ms)`,
  );
  console.log(`ratio: ${(batchPerSecond / singlePerSecond).toFixed(1)}×`);
} finally {
  await stop();
}

// Voucher documentation under load (issue 33, CONTRACT §17), on a fresh PostgreSQL database:
//   uploads/s of a 200 KB PDF (distinct bytes each, 20 per entry), downloads/s of one, 16 connections each,
//   and (first, on the freshly started instance) the service's peak RSS while 16 clients upload a 10 MB file at once (how many the instance took, how
//   many it refused with 503 beyond its share of upload bytes).
//   npm run build && npm exec -- node bench/attachments.mjs [--duration S]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startServiceOnFreshDatabase } from './sandbox-project.mjs';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 10;
const rssKb = (pid, field) =>
  Number(
    /(\d+) kB/.exec(
      readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field)) ?? '',
    )?.[1] ?? 0,
  );

const { proc, project, stop } = await startServiceOnFreshDatabase({ name: 'attachments' });
try {
  const {
    base,
    headers,
    accounts: [a, b],
  } = project;
  const auth = { authorization: headers.authorization };
  const post = async () => {
    const res = await fetch(`${base}/journal`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        posting_date: '2026-11-20',
        lines: [
          { account_id: a, debit_minor: 100 },
          { account_id: b, credit_minor: 100 },
        ],
      }),
    });
    return (await res.json()).id;
  };
  const entries = [];
  for (let i = 0; i < 800; i++) entries.push(await post());
  console.log(`rss after setup: ${rssKb(proc.pid, 'VmRSS')} kB`);

  // 16 clients upload a 10 MB file at once, while the RSS is sampled every 20 ms
  const before = rssKb(proc.pid, 'VmRSS');
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(proc.pid, 'VmRSS'));
  }, 20);
  const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10_485_760 - 9, 0x42)]);
  const statuses = await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const body = Buffer.from(big);
      body.write(String(i).padStart(16, '0'), 9, 'latin1');
      const res = await fetch(`${base}/journal/entries/${entries[entries.length - 1 - i]}/attachments`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/pdf', 'idempotency-key': randomUUID() },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  await new Promise((r) => setTimeout(r, 200));
  clearInterval(sampler);
  const counts = statuses.reduce((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});
  console.log(`16 × 10 MB at once: answers ${JSON.stringify(counts)}; RSS before ${before} kB, peak ${peak} kB (VmHWM ${rssKb(proc.pid, 'VmHWM')} kB)`);

  // uploads: a 200 KB PDF whose bytes 9–24 carry a counter (distinct content), 20 to an entry
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(204_800 - 9, 0x41)]);
  let n = 0;
  const uploads = await autocannon({
    url: base,
    connections: 16,
    duration,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = n++;
          const body = Buffer.from(pdf);
          body.write(String(i).padStart(16, '0'), 9, 'latin1');
          return {
            ...req,
            path: `${new URL(base).pathname}/journal/entries/${entries[Math.floor(i / 20) % entries.length]}/attachments`,
            headers: { ...auth, 'content-type': 'application/pdf', 'idempotency-key': randomUUID() },
            body,
          };
        },
      },
    ],
  });
  console.log(
    `uploads (200 KB, 16 connections, ${duration} s): ${uploads.requests.average.toFixed(0)} req/s, ` +
      `p50 ${uploads.latency.p50} ms, p99 ${uploads.latency.p99} ms, 2xx ${uploads['2xx']}, non-2xx ${uploads.non2xx}, errors ${uploads.errors}`,
  );

  // downloads of one of them
  const entry = entries[0];
  const one = await (await fetch(`${base}/journal/entries/${entry}`, { headers: auth })).json();
  const attachment = one.attachments[0].id;
  const downloads = await autocannon({ url: `${base}/journal/entries/${entry}/attachments/${attachment}`, connections: 16, duration, headers: auth });
  console.log(
    `downloads (200 KB, 16 connections, ${duration} s): ${downloads.requests.average.toFixed(0)} req/s, ` +
      `p50 ${downloads.latency.p50} ms, p99 ${downloads.latency.p99} ms, 2xx ${downloads['2xx']}, non-2xx ${downloads.non2xx}`,
  );
} finally {
  await stop();
}

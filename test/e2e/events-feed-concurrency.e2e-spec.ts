import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { aJournal, type SandboxProject } from '../support/fixtures';
import { describeOnPostgres } from '../support/test-app';
import { twoServiceInstances } from '../support/two-service-instances';

/** Writers run this long, and on a loaded machine on until MIN_WRITES were answered (at most MAX_WRITE_MS). */
const WRITE_MS = 8_000;
const MIN_WRITES = 300;
const MAX_WRITE_MS = 45_000;
const WRITERS_PER_INSTANCE = 8;
const POLL_MS = 3;
/** CONTRACT §14: an event is listed no later than 2 s after its commit. */
const LISTED_WITHIN_MS = 2_000;

interface Write {
  operationId: string;
  answeredAt: number;
}

/**
 * CONTRACT §14 "commit order, no gaps", the hard way: two service processes on one PostgreSQL database,
 * product creates and final postings (whose batches hold one transaction over several postings, so
 * transactions commit out of the order they began writing in) from 16 client loops for 8 s (and on until
 * 300 writes were answered, on a loaded machine), and a reader that
 * follows next_cursor every few milliseconds, alternating between the instances. What it read must be
 * exactly the project's receipts, each once, and no read to the feed's end that began 2 s or more after a
 * write was answered may lack its event.
 * A second project writes at the same time: none of its events may appear.
 */
describeOnPostgres('the events feed under concurrent writes on two instances', () => {
  const { ports, aProject } = twoServiceInstances('feed');

  /** One client loop: product creates and postings, alternately, until `done()`. */
  const writer = async (p: SandboxProject, port: number, n: number, done: () => boolean, writes: Write[]): Promise<void> => {
    const base = `http://127.0.0.1:${port}/api/partner/sandbox/v1`;
    for (let i = 0; !done(); i++) {
      const product = (i + n) % 2 === 0;
      const res = await fetch(`${base}/${product ? 'products' : 'journal'}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(product ? { code: `C-${randomUUID()}`, name: 'Concurrent' } : aJournal(p.accounts.map((a) => a.id))),
      });
      const body = (await res.json()) as { operation_id?: string; code?: string };
      if (res.status !== 201) throw new Error(`write answered ${res.status} ${body.code}`);
      writes.push({ operationId: body.operation_id!, answeredAt: Date.now() });
    }
  };

  it('a reader following next_cursor sees every event exactly once, in time, and only its own', async () => {
    const [mine, noise] = [await aProject(), await aProject()];
    const writes: Write[] = [];
    const noiseWrites: Write[] = [];
    const seen = new Map<string, number>();
    const duplicates: string[] = [];
    let pages = 0;
    let fetchMs = 0;
    /**
     * For each event, when the reader last read the feed to its end (a page without has_more, asked for at
     * that time) without finding it: the promise is broken if that was 2 s or more after the write's answer.
     */
    const missedUntil = new Map<string, number>();
    let lastWholeRead = -Infinity;
    let stop = false;

    const reader = (async () => {
      let cursor: string | null = null;
      for (let i = 0; !stop; i++) {
        const started = Date.now();
        const query = new URLSearchParams({ limit: '100', ...(cursor ? { after: cursor } : {}) });
        const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/api/partner/sandbox/v1/events?${query}`, {
          headers: { authorization: `Bearer ${mine.token}` },
        });
        if (res.status !== 200) throw new Error(`feed answered ${res.status}`);
        const page = (await res.json()) as { data: Array<{ data: { operation_id: string } }>; next_cursor: string; has_more: boolean };
        pages++;
        const now = Date.now();
        fetchMs += now - started;
        for (const e of page.data) {
          if (seen.has(e.data.operation_id)) duplicates.push(e.data.operation_id);
          else {
            seen.set(e.data.operation_id, now);
            missedUntil.set(e.data.operation_id, lastWholeRead);
          }
        }
        if (!page.has_more) lastWholeRead = started;
        cursor = page.next_cursor;
        if (!page.has_more) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();

    const started = Date.now();
    const done = () => Date.now() - started >= MAX_WRITE_MS || (Date.now() - started >= WRITE_MS && writes.length >= MIN_WRITES);
    const loops: Array<Promise<void>> = [];
    for (let i = 0; i < 2 * WRITERS_PER_INSTANCE; i++) loops.push(writer(mine, ports[i % 2], i, done, writes));
    for (let i = 0; i < 2; i++) loops.push(writer(noise, ports[i], i, done, noiseWrites));
    let writingMs = 0;
    try {
      await Promise.all(loops);
      writingMs = Date.now() - started;
      // the reader reads on until it has caught up with every answered write (or 10 s passed)
      const caughtUp = Date.now() + 10_000;
      while (Date.now() < caughtUp && !writes.every((w) => seen.has(w.operationId))) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300)); // and a little longer: nothing more may show up
    } finally {
      stop = true;
      await reader;
    }

    const written = new Set(writes.map((w) => w.operationId));
    const missing = [...written].filter((id) => !seen.has(id));
    const foreign = [...seen.keys()].filter((id) => !written.has(id));
    const lags = writes
      .filter((w) => seen.has(w.operationId))
      .map((w) => seen.get(w.operationId)! - w.answeredAt)
      .sort((a, b) => a - b);
    const heldBack = Math.max(...writes.filter((w) => seen.has(w.operationId)).map((w) => missedUntil.get(w.operationId)! - w.answeredAt));
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    let receipts: string[];
    try {
      receipts = (await client.query(`SELECT id FROM operation_receipts WHERE app_id = $1`, [mine.app_id])).rows.map((r) => r.id);
    } finally {
      await client.end();
    }
    // eslint-disable-next-line no-console
    console.log(
      `events feed: ${writes.length} writes (+${noiseWrites.length} of another project) in ${writingMs} ms, ${pages} pages read (${(fetchMs / pages).toFixed(1)} ms each), ` +
        `${missing.length} missing, ${duplicates.length} duplicate(s), ${foreign.length} foreign; listed after the answer: ` +
        `p50 ${lags[Math.floor(lags.length / 2)]} ms, p99 ${lags[Math.floor(lags.length * 0.99)]} ms, max ${lags[lags.length - 1]} ms; ` +
        `latest whole read without it: ${heldBack} ms after the answer`,
    );
    expect(writes.length).toBeGreaterThanOrEqual(MIN_WRITES);
    expect(noiseWrites.length).toBeGreaterThan(0);
    expect({ missing, duplicates, foreign }).toEqual({ missing: [], duplicates: [], foreign: [] });
    expect(new Set(receipts)).toEqual(written);
    // CONTRACT §14: listed no later than 2 s after the commit (which precedes the answer): no read to the end
    // of the feed that began 2 s or more after an answer may have lacked that write's event
    expect(heldBack).toBeLessThan(LISTED_WITHIN_MS);
  }, 180_000);
});

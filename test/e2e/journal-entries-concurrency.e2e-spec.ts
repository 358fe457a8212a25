import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { aJournal, type SandboxProject } from '../support/fixtures';
import { describeOnPostgres } from '../support/test-app';
import { twoServiceInstances } from '../support/two-service-instances';

/** Writers run this long, and on a loaded machine on until MIN_WRITES were answered (at most MAX_WRITE_MS). */
const WRITE_MS = 6_000;
const MIN_WRITES = 200;
const MAX_WRITE_MS = 40_000;
const WRITERS_PER_INSTANCE = 8;
const POLL_MS = 3;

/**
 * CONTRACT §17: "a reader that follows next_cursor while postings commit on several instances sees every
 * entry exactly once" — the events feed's hard test (events-feed-concurrency.e2e-spec.ts) for the entries
 * list: two service processes on one PostgreSQL database, final postings from 16 client loops into two
 * voucher years (two counters, so batches of postings commit out of the order they took their transaction
 * ids in), and a reader that follows next_cursor every few milliseconds, alternating between the instances.
 * What it read must be exactly the app's entries, each once; a second project's postings never appear.
 */
describeOnPostgres('the journal entries list under concurrent postings on two instances', () => {
  const { ports, aProject } = twoServiceInstances('entries');

  /** One client loop: postings into 2025 and 2026, alternately, until `done()`. */
  const writer = async (p: SandboxProject, port: number, n: number, done: () => boolean, ids: string[]): Promise<void> => {
    const base = `http://127.0.0.1:${port}/api/partner/sandbox/v1`;
    for (let i = 0; !done(); i++) {
      const res = await fetch(`${base}/journal`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(
          aJournal(
            p.accounts.map((a) => a.id),
            { posting_date: (i + n) % 2 === 0 ? '2025-12-31' : '2026-01-01' },
          ),
        ),
      });
      const body = (await res.json()) as { id?: string; code?: string };
      if (res.status !== 201) throw new Error(`posting answered ${res.status} ${body.code}`);
      ids.push(body.id!);
    }
  };

  it('a reader following next_cursor sees every entry exactly once, and only its own', async () => {
    const [mine, noise] = [await aProject(), await aProject()];
    const posted: string[] = [];
    const noisePosted: string[] = [];
    const seen = new Set<string>();
    const duplicates: string[] = [];
    let pages = 0;
    let stop = false;

    const reader = (async () => {
      let cursor: string | null = null;
      for (let i = 0; !stop; i++) {
        const query = new URLSearchParams({ limit: '100', ...(cursor ? { after: cursor } : {}) });
        const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/api/partner/sandbox/v1/journal/entries?${query}`, {
          headers: { authorization: `Bearer ${mine.token}` },
        });
        if (res.status !== 200) throw new Error(`list answered ${res.status}`);
        const page = (await res.json()) as { data: Array<{ id: string }>; next_cursor: string; has_more: boolean };
        pages++;
        for (const e of page.data) {
          if (seen.has(e.id)) duplicates.push(e.id);
          else seen.add(e.id);
        }
        cursor = page.next_cursor;
        if (!page.has_more) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();

    const started = Date.now();
    const done = () => Date.now() - started >= MAX_WRITE_MS || (Date.now() - started >= WRITE_MS && posted.length >= MIN_WRITES);
    const loops: Array<Promise<void>> = [];
    for (let i = 0; i < 2 * WRITERS_PER_INSTANCE; i++) loops.push(writer(mine, ports[i % 2], i, done, posted));
    for (let i = 0; i < 2; i++) loops.push(writer(noise, ports[i], i, done, noisePosted));
    try {
      await Promise.all(loops);
      const caughtUp = Date.now() + 10_000;
      while (Date.now() < caughtUp && !posted.every((id) => seen.has(id))) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300)); // and a little longer: nothing more may show up
    } finally {
      stop = true;
      await reader;
    }

    const written = new Set(posted);
    const missing = posted.filter((id) => !seen.has(id));
    const foreign = [...seen].filter((id) => !written.has(id));
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    let stored: string[];
    try {
      stored = (await client.query(`SELECT id FROM journal_entries WHERE app_id = $1`, [mine.app_id])).rows.map((r) => r.id);
    } finally {
      await client.end();
    }
    // eslint-disable-next-line no-console
    console.log(
      `journal entries: ${posted.length} postings (+${noisePosted.length} of another project), ${pages} pages read, ` +
        `${missing.length} missing, ${duplicates.length} duplicate(s), ${foreign.length} foreign`,
    );
    expect(posted.length).toBeGreaterThanOrEqual(MIN_WRITES);
    expect(noisePosted.length).toBeGreaterThan(0);
    expect({ missing, duplicates, foreign }).toEqual({ missing: [], duplicates: [], foreign: [] });
    expect(new Set(stored)).toEqual(written);
  }, 180_000);
});

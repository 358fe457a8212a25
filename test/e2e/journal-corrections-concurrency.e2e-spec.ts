import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { aJournal, type SandboxProject } from '../support/fixtures';
import { describeOnPostgres } from '../support/test-app';
import { twoServiceInstances } from '../support/two-service-instances';

/**
 * CONTRACT §19 across instances: two reversals of one entry under different keys, one on each of two
 * service processes on one PostgreSQL database — exactly one succeeds, the other is 409; and batches racing
 * single postings on both instances keep every year's voucher numbers gapless, each batch's consecutive.
 */
describeOnPostgres('corrections and batches on two instances', () => {
  const { ports, aProject } = twoServiceInstances('corrections');

  const send = async (port: number, p: SandboxProject, path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/partner/sandbox/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { code?: string } };
  };
  const stored = async (organizationId: string) => {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      return (
        await client.query<{ voucher_year: number; voucher_number: number; reverses: string | null }>(
          `SELECT voucher_year, voucher_number, reverses FROM journal_entries WHERE organization_id = $1 ORDER BY voucher_year, voucher_number`,
          [organizationId],
        )
      ).rows;
    } finally {
      await client.end();
    }
  };

  it('two concurrent reversals of one entry under different keys, one per instance: exactly one 201, the other 409', async () => {
    const p = await aProject();
    const accounts = p.accounts.map((a) => a.id);
    const originals: string[] = [];
    for (let i = 0; i < 8; i++) originals.push((await send(ports[0], p, '/journal', aJournal(accounts))).body.id as string);
    const answers = await Promise.all(
      originals.flatMap((id) => ports.map((port) => send(port, p, `/journal/entries/${id}/reversal`, { posting_date: '2026-11-30' }))),
    );
    for (let i = 0; i < originals.length; i++) {
      const pair = answers.slice(2 * i, 2 * i + 2);
      expect(pair.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(pair.find((a) => a.status === 409)!.body.code).toBe('resource_conflict');
    }
    const rows = await stored(p.organization_id);
    expect(rows.filter((r) => r.reverses !== null)).toHaveLength(originals.length);
    expect(rows.map((r) => r.voucher_number)).toEqual(Array.from({ length: 2 * originals.length }, (_, i) => i + 1));
  }, 60_000);

  it("a year's first posting committed while two batches wait for the other year's counter: both batches and the posting 201, no deadlock", async () => {
    // The 2025-12 period exists, the 2025 counter not yet. Batch B begins (its snapshot has no 2025 counter) and waits for the 2026 counter, which a session
    // holds; a single 2025 posting then creates the 2025 counter, and batch A, which sees it, waits for
    // 2026 too. When the session lets go, B got the 2026 counter first. Had each batch locked only the
    // counters its snapshot saw, B would lock 2026 then 2025 and A 2025 then 2026: a deadlock, one of them
    // 503 (seen before the counters' advisory locks).
    const p = await aProject();
    const accounts = p.accounts.map((a) => a.id);
    expect((await send(ports[0], p, '/journal', aJournal(accounts, { posting_date: '2026-01-02' }))).status).toBe(201);
    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    const waitingOnLocks = async (n: number) => {
      for (let i = 0; i < 200; i++) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%voucher_counters%' AND pid <> pg_backend_pid()`,
        );
        if (rows[0].n >= n) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`fewer than ${n} statements waited for a lock`);
    };
    const holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      const batch = () =>
        send(ports[0], p, '/journal/batch', {
          journals: [aJournal(accounts, { posting_date: '2025-12-31' }), aJournal(accounts, { posting_date: '2026-01-02' })],
        });
      // the month's period row without its year's counter, as a batch's run that must run again leaves it
      // (its periods committed, nothing numbered)
      await holder.query(`INSERT INTO periods (organization_id, period) VALUES ($1, '2025-12')`, [p.organization_id]);
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM voucher_counters WHERE organization_id = $1 AND year = 2026 FOR UPDATE`, [p.organization_id]);
      const b = batch();
      await waitingOnLocks(1);
      const single = send(ports[1], p, '/journal', aJournal(accounts, { posting_date: '2025-12-31' }));
      // the posting either commits the 2025 counter at once or waits for batch B's lock on it
      await Promise.race([single, waitingOnLocks(2)]);
      const a = batch();
      await waitingOnLocks(2);
      await new Promise((r) => setTimeout(r, 100));
      await holder.query('COMMIT');
      const answers = await Promise.all([b, single, a]);
      expect(answers.map((x) => [x.status, x.body.code])).toEqual([
        [201, undefined],
        [201, undefined],
        [201, undefined],
      ]);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await db.end();
    }
    const rows = await stored(p.organization_id);
    expect(rows.map((r) => [r.voucher_year, r.voucher_number])).toEqual([
      [2025, 1],
      [2025, 2],
      [2025, 3],
      [2026, 1],
      [2026, 2],
      [2026, 3],
    ]);
  }, 60_000);

  it('batches racing single postings on both instances keep every year gapless, each batch consecutive per year in input order', async () => {
    const p = await aProject();
    const accounts = p.accounts.map((a) => a.id);
    const dateOf = (i: number) => (i % 3 === 0 ? '2025-12-31' : '2026-01-02');
    const batches: Array<Array<{ voucher_year: number; voucher_number: number }>> = [];
    const loop = async (port: number, n: number) => {
      for (let round = 0; round < 6; round++) {
        if ((round + n) % 2 === 0) {
          const res = await send(port, p, '/journal/batch', {
            journals: Array.from({ length: 10 }, (_, i) => aJournal(accounts, { posting_date: dateOf(i + round) })),
          });
          expect(res.status).toBe(201);
          batches.push(res.body.entries as Array<{ voucher_year: number; voucher_number: number }>);
        } else {
          expect((await send(port, p, '/journal', aJournal(accounts, { posting_date: dateOf(round + n) }))).status).toBe(201);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => loop(ports[n % 2], n)));
    const rows = await stored(p.organization_id);
    for (const year of [2025, 2026]) {
      const numbers = rows.filter((r) => r.voucher_year === year).map((r) => r.voucher_number);
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    }
    for (const entries of batches) {
      for (const year of [2025, 2026]) {
        const numbers = entries.filter((e) => e.voucher_year === year).map((e) => e.voucher_number);
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => numbers[0] + i));
      }
    }
    expect(batches).toHaveLength(24);
  }, 90_000);
});

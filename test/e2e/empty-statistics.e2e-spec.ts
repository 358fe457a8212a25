import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { EmptyStatisticsWatch } from '../../src/shared/database/empty-statistics-watch';
import { aJournal, aSandboxProject, SANDBOX } from '../support/fixtures';
import { withNewDatabase } from '../support/new-database';
import { createTestApp, itOnPostgres } from '../support/test-app';
import { eventually } from '../support/wait';

/**
 * Through HTTP, on a NEW PostgreSQL database whose journal tables are vacuumed and analyzed while
 * empty (as the yardstick does between scenarios, as a deployment script may).
 *
 * The bug: the service's pooled connections kept the foreign-key check of each journal line planned
 * for an empty `journal_entries` — a sequential scan of every entry — until autovacuum analyzed the
 * table, up to a minute later; a posting's cost grew with the number of entries. Without the watch,
 * the 20 postings after the first 400 make 40 sequential scans of journal_entries; with it, none.
 */
describe('a table analyzed while empty', () => {
  itOnPostgres(
    'is analyzed again once it has outgrown its statistics, and postings stop scanning it',
    async () => {
      await withNewDatabase('stats', async (url) => {
        const app = await createTestApp({ database: { kind: 'postgres', url } });
        const db = new Client({ connectionString: url });
        try {
          await db.connect();
          const p = await aSandboxProject(app);
          await db.query('VACUUM ANALYZE journal_entries, journal_lines');
          const ids = p.accounts.map((a) => a.id);
          const post = async () => {
            const res = await app
              .partner()
              .post(`${SANDBOX}/journal`)
              .set('Authorization', `Bearer ${p.token}`)
              .set('Idempotency-Key', randomUUID())
              .send(aJournal(ids));
            expect(res.status).toBe(201);
          };
          // the counters of the service's connections, once all `entries` inserts have been reported
          const entryStats = async (entries: number) => {
            let row: { seq_scan: number; n_tup_ins: number } = { seq_scan: -1, n_tup_ins: -1 };
            await eventually(
              async () => {
                await db.query('SELECT pg_stat_clear_snapshot()');
                [row] = (await db.query(`SELECT seq_scan::int, n_tup_ins::int FROM pg_stat_user_tables WHERE relname = 'journal_entries'`)).rows;
                return row.n_tup_ins === entries;
              },
              `the statistics of ${entries} inserted entries`,
              30_000,
            );
            return row;
          };

          for (let i = 0; i < 400; i++) await post();
          const watch = app.apps.partner.get(EmptyStatisticsWatch);
          await entryStats(400);
          // the watch's own timer may have come first: then there is nothing left for this round
          await watch.runOnce();
          const [{ reltuples }] = (await db.query(`SELECT reltuples::int FROM pg_class WHERE relname = 'journal_entries'`)).rows;
          expect(reltuples).toBeGreaterThanOrEqual(200);

          const before = await entryStats(400);
          for (let i = 0; i < 20; i++) await post();
          const after = await entryStats(420);
          expect(after.seq_scan - before.seq_scan).toBe(0);
          // nothing left to analyze
          expect(await watch.runOnce()).toEqual([]);
        } finally {
          await app.close();
          await db.end().catch(() => undefined);
        }
      });
    },
    180_000,
  );
});

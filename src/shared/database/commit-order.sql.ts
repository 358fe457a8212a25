import type { Sql } from './sql';
import { type Bound, type CompiledSql, compileSql, sql, type SqlFragment } from './sql-template';

/**
 * Commit-ordered reads (docs/adr/0006-events-feed-commit-order.md): rows are listed below a *horizon*, the
 * lowest transaction id that may still commit a row of this database, taken from the page statement's own
 * snapshot (the one its rows are read under), so every row below the horizon that is not listed has not
 * committed and never will. Ids of running transactions of other databases of the cluster (which cannot
 * write here) do not hold it back, so a long transaction elsewhere on a shared server does not stall a
 * reader (nor does a transaction prepared for two-phase commit there); an id whose database is not known
 * counts as this database's (it holds the horizon: later, never wrong).
 *
 * Which database an id belongs to is read from pg_stat_activity, and a statement reads it after its
 * snapshot: an id of another database that ended in between is no longer named there. Counted as this
 * database's, it held the horizon below rows an earlier read had listed, and a list from the start shrank
 * (the CI failure of 2026-11-26; test/e2e/journal-entries.e2e-spec.ts "never lists fewer"). So the
 * statement also says whether its horizon is *uncertain*: held by an id that no backend and no prepared
 * transaction holds any more. Such a read is read again (a new snapshot, in which that id has ended); after
 * OPTIMISTIC_READS uncertain ones, RUNNING_ELSEWHERE is read first and the page statement leaves out the
 * ids it names, read before its snapshot, which cannot have ended in between unnamed. An id of another
 * database never becomes this database's.
 */
const OPTIMISTIC_READS = 3;

/** The ids running in another database of the cluster now (as an xid[] literal). */
export const RUNNING_ELSEWHERE = `SELECT coalesce(array_agg(backend_xid), '{}')::text AS xids
    FROM pg_stat_activity
   WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()`;

/**
 * A page statement over the slots `names` (compileSql): `rows(slots)` lists the page below `h.xid` (and must
 * select the row's `commit_xid AS xid` and its `id`, the commit order); the statement's own slot `elsewhere`
 * is filled by commitOrderedRead with RUNNING_ELSEWHERE's list or null. An empty page is one row of nulls,
 * so that `uncertain` is always read.
 */
export const commitOrderedStatement = <K extends string>(
  names: readonly K[],
  rows: (slots: Readonly<Record<K, Bound>>) => SqlFragment,
): CompiledSql<K | 'elsewhere'> =>
  compileSql([...names, 'elsewhere'] as ReadonlyArray<K | 'elsewhere'>, (slots) => {
    const elsewhere = slots.elsewhere;
    return sql`WITH s AS (SELECT pg_current_snapshot() AS snap),
  held AS MATERIALIZED (SELECT LEAST(pg_snapshot_xmax(s.snap), (
             SELECT min(x) FROM pg_snapshot_xip(s.snap) AS x
              WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                 WHERE a.backend_xid = xid(x) AND a.datname IS DISTINCT FROM current_database())
                AND NOT EXISTS (SELECT 1 FROM pg_prepared_xacts p
                                 WHERE p.transaction = xid(x) AND p.database IS DISTINCT FROM current_database())
                AND (${elsewhere}::xid[] IS NULL OR NOT (xid(x) = ANY(${elsewhere}::xid[]))))) AS xid,
                  pg_snapshot_xmax(s.snap) AS xmax
             FROM s),
  h AS (SELECT held.xid, CASE WHEN held.xid < held.xmax
                              THEN NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.backend_xid = xid(held.xid))
                               AND NOT EXISTS (SELECT 1 FROM pg_prepared_xacts p WHERE p.transaction = xid(held.xid))
                              ELSE false END AS uncertain
          FROM held)
  SELECT h.uncertain, r.* FROM h LEFT JOIN LATERAL (${rows(slots)}) r ON true ORDER BY r.xid, r.id`;
  });

/** A row of a commitOrderedStatement: its position's xid and the statement's `uncertain` (a view leaves it out). */
export interface CommitOrderedRow {
  xid: string;
  uncertain: boolean;
}

/** The page's rows of a commitOrderedStatement, `args` the values of its slots but `elsewhere`. */
export async function commitOrderedRead<Row extends CommitOrderedRow, K extends string>(
  sql: Sql,
  statement: Pick<CompiledSql<K | 'elsewhere'>, 'text' | 'values'>,
  args: Readonly<Record<K, unknown>>,
): Promise<Row[]> {
  let elsewhere: string | null = null;
  for (let read = 1; ; read++) {
    const rows = await sql.query<Row>(statement.text, statement.values({ ...args, elsewhere } as Record<K | 'elsewhere', unknown>));
    if (elsewhere !== null || !rows[0].uncertain) return rows[0].xid === null ? [] : rows;
    if (read >= OPTIMISTIC_READS) [{ xids: elsewhere }] = await sql.query<{ xids: string }>(RUNNING_ELSEWHERE, []);
  }
}

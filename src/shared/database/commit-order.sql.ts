import type { Sql } from './sql';

/**
 * The horizon of a commit-ordered read (docs/adr/0006-events-feed-commit-order.md): the lowest transaction
 * id that may still commit a row of this database. Every id below it has ended; ids of running
 * transactions of other databases of the cluster (which cannot write here) do not hold it back, so a long
 * transaction elsewhere on a shared server does not stall a reader.
 *
 * A read is two statements (commitOrderedRead): RUNNING_ELSEWHERE first lists the ids running in another
 * database, then the page's own statement takes its snapshot and leaves out only ids of that list. An id
 * of another database never becomes this database's, and one running in the later snapshot that the
 * earlier list does not name counts as this database's (it holds the horizon: later, never wrong). The
 * list must come first: read after the snapshot (as one statement did until 2026-11-26), an id of another
 * database that ended in between was no longer named, held the horizon back, and a read listed fewer rows
 * than an earlier one had (test/e2e/journal-entries.e2e-spec.ts "never lists fewer"). The snapshot is the
 * page statement's own, the one its rows are read under, so every row below the horizon that is not listed
 * has not committed and never will.
 */
export const RUNNING_ELSEWHERE = `SELECT coalesce(array_agg(backend_xid), '{}')::text AS xids
    FROM pg_stat_activity
   WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()`;

/**
 * The horizon of the page statement, RUNNING_ELSEWHERE's list as the parameter `param` (e.g. `$7`). Use it
 * as `WITH horizon AS (${commitHorizon('$7')})` and list rows `WHERE commit_xid < horizon.xid`.
 */
export const commitHorizon = (param: string): string => `SELECT LEAST(pg_snapshot_xmax(s.snap), (
           SELECT min(x) FROM pg_snapshot_xip(s.snap) AS x WHERE NOT (xid(x) = ANY(${param}::xid[])))) AS xid
         FROM (SELECT pg_current_snapshot() AS snap) s`;

/**
 * A commit-ordered page: RUNNING_ELSEWHERE, then `page` with `values` and that list as its last parameter
 * (`commitHorizon(\`$${values.length + 1}\`)` in its text).
 */
export async function commitOrderedRead<Row extends object>(sql: Sql, page: string, values: unknown[]): Promise<Row[]> {
  const [{ xids }] = await sql.query<{ xids: string }>(RUNNING_ELSEWHERE, []);
  return sql.query<Row>(page, [...values, xids]);
}

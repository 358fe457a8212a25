/**
 * The horizon of a commit-ordered read (docs/adr/0006-events-feed-commit-order.md): the lowest transaction
 * id that may still commit a row of this database. Every id below it has ended; ids of running
 * transactions of other databases of the cluster (which cannot write here) do not hold it back, so a long
 * transaction elsewhere on a shared server does not stall a reader. A running id whose backend is no longer
 * in pg_stat_activity when it is read, or whose database cannot be seen, counts as this database's (it holds
 * the horizon: later, never wrong). The snapshot is the statement's own, the one the rows are read under,
 * so every row below the horizon that is not listed has not committed and never will.
 *
 * Use it as `WITH horizon AS (${COMMIT_HORIZON})` and list rows `WHERE commit_xid < horizon.xid`.
 */
export const COMMIT_HORIZON = `SELECT LEAST(pg_snapshot_xmax(s.snap), (
           SELECT min(x) FROM pg_snapshot_xip(s.snap) AS x
            WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                               WHERE a.backend_xid = xid(x) AND a.datname IS DISTINCT FROM current_database()))) AS xid
         FROM (SELECT pg_current_snapshot() AS snap) s`;

import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
import { EventFeedRepository, type FeedPosition, type StoredEvent } from '../domain/event-feed';

/**
 * The horizon of the feed (docs/adr/0006-events-feed-commit-order.md): the lowest transaction id that may
 * still commit an event of this database. Every id below it has ended; ids of running transactions of
 * other databases of the cluster (which cannot write here) do not hold it back, so a long transaction
 * elsewhere on a shared server does not stall the feed. A running id whose backend is no longer in
 * pg_stat_activity when it is read, or whose database cannot be seen, counts as this database's (it
 * holds the horizon: later, never wrong). The snapshot is the statement's own, the one the rows are read
 * under, so every row below the horizon that is not listed has not committed and never will.
 */
export const FEED_HORIZON = `SELECT LEAST(pg_snapshot_xmax(s.snap), (
           SELECT min(x) FROM pg_snapshot_xip(s.snap) AS x
            WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                               WHERE a.backend_xid = xid(x) AND a.datname IS DISTINCT FROM current_database()))) AS xid
         FROM (SELECT pg_current_snapshot() AS snap) s`;

const PAGE = `WITH horizon AS (${FEED_HORIZON})
  SELECT o.id, o.body, o.commit_xid::text AS xid
    FROM webhook_outbox o, horizon h
   WHERE o.organization_id = $1 AND o.app_id = $2 AND o.environment = $3
     AND (o.commit_xid, o.id) > ($4::xid8, $5::uuid)
     AND o.commit_xid < h.xid
   ORDER BY o.commit_xid, o.id
   LIMIT $6`;

@Injectable()
export class TypeOrmEventFeedRepository extends EventFeedRepository {
  constructor(private readonly sql: Sql) {
    super();
  }

  async page(
    scope: { organizationId: string; appId: string; environment: string },
    after: FeedPosition,
    limit: number,
  ): Promise<StoredEvent[]> {
    const rows = await this.sql.query<{ id: string; body: string; xid: string }>(PAGE, [
      scope.organizationId, scope.appId, scope.environment, after.xid, after.id, limit,
    ]);
    return rows.map((r) => ({ id: r.id, body: r.body, position: { xid: r.xid, id: r.id } }));
  }
}

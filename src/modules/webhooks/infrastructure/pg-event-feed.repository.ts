import { Injectable } from '@nestjs/common';
import { type CommitOrderedRow, commitOrderedRead, commitOrderedStatement } from '../../../shared/database/commit-order.sql';
import { Sql } from '../../../shared/database/sql';
import { EventFeedRepository, type FeedPosition, type StoredEvent } from '../domain/event-feed';
import { sql } from '../../../shared/database/sql-template';

/** The horizon: docs/adr/0006-events-feed-commit-order.md (commitOrderedRead). */
const PAGE_SLOTS = ['organizationId', 'appId', 'environment', 'xid', 'id', 'limit'] as const;
const PAGE = commitOrderedStatement(
  PAGE_SLOTS,
  (s) => sql`SELECT o.id, o.body, o.commit_xid AS xid
    FROM webhook_outbox o
   WHERE o.organization_id = ${s.organizationId} AND o.app_id = ${s.appId} AND o.environment = ${s.environment}
     AND (o.commit_xid, o.id) > (${s.xid}::xid8, ${s.id}::uuid)
     AND o.commit_xid < h.xid
   ORDER BY o.commit_xid, o.id
   LIMIT ${s.limit}`,
);

@Injectable()
export class PgEventFeedRepository extends EventFeedRepository {
  constructor(private readonly sql: Sql) {
    super();
  }

  async page(scope: { organizationId: string; appId: string; environment: string }, after: FeedPosition, limit: number): Promise<StoredEvent[]> {
    const rows = await commitOrderedRead<{ id: string; body: string } & CommitOrderedRow, (typeof PAGE_SLOTS)[number]>(this.sql, PAGE, {
      organizationId: scope.organizationId,
      appId: scope.appId,
      environment: scope.environment,
      xid: after.xid,
      id: after.id,
      limit,
    });
    return rows.map((r) => ({ id: r.id, body: r.body, position: { xid: r.xid, id: r.id } }));
  }
}

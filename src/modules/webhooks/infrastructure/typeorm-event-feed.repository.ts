import { Injectable } from '@nestjs/common';
import { type CommitOrderedRow, commitOrderedRead, commitOrderedStatement } from '../../../shared/database/commit-order.sql';
import { Sql } from '../../../shared/database/sql';
import { EventFeedRepository, type FeedPosition, type StoredEvent } from '../domain/event-feed';

/** The horizon: docs/adr/0006-events-feed-commit-order.md (commitOrderedRead). */
const PAGE = commitOrderedStatement(`SELECT o.id, o.body, o.commit_xid AS xid
    FROM webhook_outbox o
   WHERE o.organization_id = $1 AND o.app_id = $2 AND o.environment = $3
     AND (o.commit_xid, o.id) > ($4::xid8, $5::uuid)
     AND o.commit_xid < h.xid
   ORDER BY o.commit_xid, o.id
   LIMIT $6`, '$7');

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
    const rows = await commitOrderedRead<{ id: string; body: string } & CommitOrderedRow>(this.sql, PAGE, [
      scope.organizationId, scope.appId, scope.environment, after.xid, after.id, limit,
    ]);
    return rows.map((r) => ({ id: r.id, body: r.body, position: { xid: r.xid, id: r.id } }));
  }
}

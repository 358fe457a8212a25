import { Injectable } from '@nestjs/common';
import { CommitOrderCursor } from '../../../shared/crypto/commit-order-cursor';
import { SecretBox, TAG_CONTEXT } from '../../../shared/crypto/secret-box';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { pageLimitOf } from '../../../shared/domain/commit-order';
import { toInputError, type Violation } from '../../../shared/domain/errors';
import { EventFeedRepository, FEED_LIMIT, FEED_START, type FeedEvent, feedEventOf } from '../domain/event-feed';

/** CONTRACT §14: a page of the feed. */
export interface EventsPage {
  data: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** The query of `GET {base}/events` as it came (Express may give a repeated parameter as an array). */
export interface EventsQuery {
  after?: unknown;
  limit?: unknown;
}

/**
 * The events feed (CONTRACT §14): the caller's events in commit order (the repository's horizon), read
 * on from an opaque cursor (CommitOrderCursor: tagged over the position and the caller, so a cursor this
 * service did not issue, or issued to another app, is refused with 400 before anything is read, and a
 * cursor never reaches another app's events — the read is scoped to the caller besides).
 */
@Injectable()
export class EventsFeedService {
  private readonly cursors: CommitOrderCursor;

  constructor(
    private readonly feed: EventFeedRepository,
    box: SecretBox,
  ) {
    this.cursors = new CommitOrderCursor(box, TAG_CONTEXT.eventsCursor);
  }

  async page(caller: CallerContext, query: EventsQuery): Promise<EventsPage> {
    const violations: Violation[] = [];
    const after = query.after === undefined ? FEED_START : this.cursors.positionOf(caller, query.after);
    if (after === null) violations.push({ pointer: '/after', code: 'invalid_input', detail: 'must be a next_cursor this feed issued to this app' });
    const limit = pageLimitOf(query.limit);
    if (limit === null) {
      violations.push({ pointer: '/limit', code: 'invalid_input', detail: `must be an integer from ${FEED_LIMIT.min} to ${FEED_LIMIT.max}` });
    }
    if (violations.length > 0 || after === null || limit === null) throw toInputError(violations);

    const rows = await this.feed.page(caller, after, limit + 1);
    const listed = rows.slice(0, limit);
    const last = listed.length > 0 ? listed[listed.length - 1].position : after;
    return { data: listed.map(feedEventOf), next_cursor: this.cursors.cursorOf(caller, last), has_more: rows.length > limit };
  }
}

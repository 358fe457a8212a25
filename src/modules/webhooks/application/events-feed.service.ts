import { Injectable } from '@nestjs/common';
import { SecretBox, TAG_CONTEXT } from '../../../shared/crypto/secret-box';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { toInputError, type Violation } from '../../../shared/domain/errors';
import {
  EventFeedRepository,
  FEED_LIMIT,
  FEED_START,
  type FeedEvent,
  feedEventOf,
  type FeedPosition,
  parsePositionText,
  positionText,
} from '../domain/event-feed';

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

const LIMIT_TEXT = /^\d{1,3}$/;

/**
 * The events feed (CONTRACT §14): the caller's events in commit order (the repository's horizon), read
 * on from an opaque cursor. A cursor is the position's text (base64url) and a tag (SecretBox.tag) over
 * the position AND the caller's environment, organization and app: a cursor this service did not issue,
 * or issued to another app, is refused with 400 before anything is read, so a cursor never reaches
 * another app's events (the read is scoped to the caller besides).
 */
@Injectable()
export class EventsFeedService {
  constructor(
    private readonly feed: EventFeedRepository,
    private readonly box: SecretBox,
  ) {}

  async page(caller: CallerContext, query: EventsQuery): Promise<EventsPage> {
    const violations: Violation[] = [];
    const after = query.after === undefined ? FEED_START : this.positionOf(caller, query.after);
    if (after === null) violations.push({ pointer: '/after', code: 'invalid_input', detail: 'must be a next_cursor this feed issued to this app' });
    const limit = query.limit === undefined ? FEED_LIMIT.default : limitOf(query.limit);
    if (limit === null) {
      violations.push({ pointer: '/limit', code: 'invalid_input', detail: `must be an integer from ${FEED_LIMIT.min} to ${FEED_LIMIT.max}` });
    }
    if (violations.length > 0 || after === null || limit === null) throw toInputError(violations);

    const rows = await this.feed.page(caller, after, limit + 1);
    const listed = rows.slice(0, limit);
    const last = listed.length > 0 ? listed[listed.length - 1].position : after;
    return { data: listed.map(feedEventOf), next_cursor: this.cursorOf(caller, last), has_more: rows.length > limit };
  }

  private cursorOf(caller: CallerContext, p: FeedPosition): string {
    const text = positionText(p);
    return `${Buffer.from(text, 'utf8').toString('base64url')}.${this.box.tag(tagMessage(caller, text), TAG_CONTEXT.eventsCursor)}`;
  }

  private positionOf(caller: CallerContext, cursor: unknown): FeedPosition | null {
    if (typeof cursor !== 'string' || cursor.length > 200) return null;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[A-Za-z0-9_-]+$/.test(cursor.slice(0, dot))) return null;
    const text = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
    const position = parsePositionText(text);
    if (!position || Buffer.from(text, 'utf8').toString('base64url') !== cursor.slice(0, dot)) return null;
    return this.box.verifyTag(tagMessage(caller, text), TAG_CONTEXT.eventsCursor, cursor.slice(dot + 1)) ? position : null;
  }
}

/** What a cursor's tag vouches for: this position in this caller's feed. */
function tagMessage(caller: CallerContext, position: string): string {
  return `${caller.environment}|${caller.organizationId}|${caller.appId}|${position}`;
}

function limitOf(value: unknown): number | null {
  if (typeof value !== 'string' || !LIMIT_TEXT.test(value)) return null;
  const n = Number(value);
  return n >= FEED_LIMIT.min && n <= FEED_LIMIT.max ? n : null;
}

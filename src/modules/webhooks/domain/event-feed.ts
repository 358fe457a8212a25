import { COMMIT_ORDER_START, type CommitPosition, PAGE_LIMIT, parsePositionText, positionText } from '../../../shared/domain/commit-order';

/**
 * The events feed (CONTRACT §14): an app's `operation.completed` events in commit order, read page by
 * page with an opaque cursor. docs/adr/0006-events-feed-commit-order.md explains the order.
 */

/** A place in an app's feed (the shared commit order's position). */
export type FeedPosition = CommitPosition;
export const FEED_START: FeedPosition = COMMIT_ORDER_START;
export { parsePositionText, positionText };

/** An outbox event as the feed reads it: its id (the webhook-id) and the exact body every delivery sends. */
export interface StoredEvent {
  readonly id: string;
  readonly body: string;
  readonly position: FeedPosition;
}

/** CONTRACT §14: an event of the feed, the webhook body with the webhook's id first. */
export interface FeedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

/**
 * The feed's event from the stored event: its webhook-id and the members of the body every delivery
 * of it sends (the dispatcher sends `body` as it is, with the id as `webhook-id`), so id, timestamp and
 * data are the delivery's by construction.
 */
export function feedEventOf(e: Pick<StoredEvent, 'id' | 'body'>): FeedEvent {
  return { id: e.id, ...(JSON.parse(e.body) as Omit<FeedEvent, 'id'>) };
}

export const FEED_LIMIT = PAGE_LIMIT;

/** Port: an app's events in feed order. */
export abstract class EventFeedRepository {
  /**
   * At most `limit` events of (organization, app, environment) after `after`, in (xid, id) order, of
   * transactions that committed before every transaction of this database still in progress began
   * writing (so no event can later commit before a position already handed out).
   */
  abstract page(scope: { organizationId: string; appId: string; environment: string }, after: FeedPosition, limit: number): Promise<StoredEvent[]>;
}

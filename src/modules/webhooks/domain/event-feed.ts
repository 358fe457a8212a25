/**
 * The events feed (CONTRACT §14): an app's `operation.completed` events in commit order, read page by
 * page with an opaque cursor. docs/adr/0006-events-feed-commit-order.md explains the order.
 */

/**
 * A place in an app's feed: after the event `id` of the transaction `xid` (PostgreSQL's xid8, as a
 * decimal string). Events are listed by (xid, id); START is before every event.
 */
export interface FeedPosition {
  readonly xid: string;
  readonly id: string;
}

export const FEED_START: FeedPosition = Object.freeze({ xid: '0', id: '00000000-0000-0000-0000-000000000000' });

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

export const FEED_LIMIT = { min: 1, max: 100, default: 20 } as const;

const XID8 = /^(?:0|[1-9]\d{0,19})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** xid8 is an unsigned 64-bit integer. */
const XID8_MAX = 18446744073709551615n;

/** The position's text inside a cursor: `<xid>:<id>`. */
export function positionText(p: FeedPosition): string {
  return `${p.xid}:${p.id}`;
}

/** The position a cursor's text names, or null when it is not one. */
export function parsePositionText(text: string): FeedPosition | null {
  const [xid, id, ...rest] = text.split(':');
  if (rest.length > 0 || xid === undefined || id === undefined) return null;
  if (!XID8.test(xid) || BigInt(xid) > XID8_MAX || !UUID.test(id)) return null;
  return { xid, id };
}

/** Port: an app's events in feed order. */
export abstract class EventFeedRepository {
  /**
   * At most `limit` events of (organization, app, environment) after `after`, in (xid, id) order, of
   * transactions that committed before every transaction of this database still in progress began
   * writing (so no event can later commit before a position already handed out).
   */
  abstract page(
    scope: { organizationId: string; appId: string; environment: string },
    after: FeedPosition,
    limit: number,
  ): Promise<StoredEvent[]>;
}

import { commitOrderPage, commitOrderQuery, ref, type Schema } from '../../../shared/http/openapi/common';

/** `GET {base}/events` in the partner document (CONTRACT §14); FeedEvent is the document's webhooks part. */
export const EVENTS_PAGE_SCHEMAS: Record<string, Schema> = {
  EventsPage: commitOrderPage(ref('FeedEvent'), 'more events can be read now', "A page of the app's events, in commit order (CONTRACT §14)."),
};

export const EVENTS_QUERY = commitOrderQuery(
  'A `next_cursor` of an earlier page; without it the feed starts at the oldest retained event.',
  'Events per page.',
);

import { object, ref, type Schema } from '../../../shared/http/openapi/common';

/** `GET {base}/events` in the partner document (CONTRACT §14); FeedEvent is the document's webhooks part. */
export const EVENTS_PAGE_SCHEMAS: Record<string, Schema> = {
  EventsPage: object(
    {
      data: { type: 'array', items: ref('FeedEvent'), maxItems: 100 },
      next_cursor: { type: 'string', description: 'opaque; pass it as `after` to read on (also from an empty page, later)' },
      has_more: { type: 'boolean', description: 'more events can be read now' },
    },
    undefined,
    { description: "A page of the app's events, in commit order (CONTRACT §14)." },
  ),
};

export const EVENTS_QUERY = [
  {
    name: 'after',
    in: 'query',
    required: false,
    description: 'A `next_cursor` of an earlier page; without it the feed starts at the oldest retained event.',
    schema: { type: 'string', maxLength: 200 },
  },
  { name: 'limit', in: 'query', required: false, description: 'Events per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
];

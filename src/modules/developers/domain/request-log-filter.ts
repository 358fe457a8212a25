import type { RequestLogFilter } from './developer.repository';

/** The request log's Status filter values (CONTRACT §15: all, 2xx, 4xx, 5xx); "all" is no filter. */
export const LOG_STATUSES = ['2xx', '4xx', '5xx'] as const;
export const LOG_ENVIRONMENTS = ['sandbox', 'production'] as const;

/** Which parameter is wrong, by name: the page words it (the developer catalogue's `logFilter.<name>`, with `max`). */
export const LOG_FILTER_ERRORS = ['environment', 'status', 'path', 'requestId', 'before'] as const;
export type LogFilterError = (typeof LOG_FILTER_ERRORS)[number];
export const LOG_FILTER_TEXT_MAX = 200;
const TEXT_MAX = LOG_FILTER_TEXT_MAX;

/**
 * The app page's request-log filters from its query string (`environment`, `status`, `path`,
 * `request_id`, `before`): a filter, or the message that says which parameter is wrong. An empty value
 * is no filter; control characters are refused rather than searched for.
 */
export function parseRequestLogFilter(query: Record<string, unknown>): { filter: RequestLogFilter } | { error: LogFilterError } {
  const text = (name: string): string | undefined | null => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string' || raw.length > TEXT_MAX || /[\u0000-\u001f\u007f]/.test(raw)) return null;
    return raw;
  };
  const filter: RequestLogFilter = {};
  const environment = text('environment');
  if (environment === null || (environment !== undefined && environment !== 'all' && !(LOG_ENVIRONMENTS as readonly string[]).includes(environment))) {
    return { error: 'environment' };
  }
  if (environment && environment !== 'all') filter.environment = environment as RequestLogFilter['environment'];
  const status = text('status');
  if (status === null || (status !== undefined && status !== 'all' && !(LOG_STATUSES as readonly string[]).includes(status))) {
    return { error: 'status' };
  }
  if (status && status !== 'all') filter.status = status as RequestLogFilter['status'];
  const path = text('path');
  if (path === null) return { error: 'path' };
  if (path !== undefined) filter.pathContains = path;
  const requestId = text('request_id');
  if (requestId === null) return { error: 'requestId' };
  if (requestId !== undefined) filter.requestId = requestId.trim();
  const before = text('before');
  if (before === null || (before !== undefined && !/^[1-9][0-9]{0,17}$/.test(before))) return { error: 'before' };
  if (before !== undefined) filter.before = before;
  return { filter };
}

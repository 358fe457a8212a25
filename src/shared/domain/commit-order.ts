/**
 * Commit order (docs/adr/0006-events-feed-commit-order.md, reused by docs/adr/0011-journal-entries-commit-order.md):
 * rows that record their writer's transaction id (`commit_xid xid8 DEFAULT pg_current_xact_id()`) are read
 * page by page in (xid, id) order, below the horizon of transactions still running, from an opaque cursor.
 * The events feed (CONTRACT §14) and the journal entries list (§17) are both read this way.
 */

/**
 * A place in a commit-ordered list: after the row `id` of the transaction `xid` (PostgreSQL's xid8, as a
 * decimal string). Rows are listed by (xid, id); COMMIT_ORDER_START is before every row.
 */
export interface CommitPosition {
  readonly xid: string;
  readonly id: string;
}

export const COMMIT_ORDER_START: CommitPosition = Object.freeze({ xid: '0', id: '00000000-0000-0000-0000-000000000000' });

/** `limit` of a commit-ordered page (CONTRACT §14, §17). */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;

const XID8 = /^(?:0|[1-9]\d{0,19})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** xid8 is an unsigned 64-bit integer. */
const XID8_MAX = 18446744073709551615n;

/** The position as text, `<xid>:<id>` (a cursor before version 6 carried it in the clear). */
export function positionText(p: CommitPosition): string {
  return `${p.xid}:${p.id}`;
}

/** The position a cursor's text names, or null when it is not one. */
export function parsePositionText(text: string): CommitPosition | null {
  const [xid, id, ...rest] = text.split(':');
  if (rest.length > 0 || xid === undefined || id === undefined) return null;
  if (!XID8.test(xid) || BigInt(xid) > XID8_MAX || !UUID.test(id)) return null;
  return { xid, id };
}

const LIMIT_TEXT = /^\d{1,3}$/;

/** A `limit` query parameter as it came (Express may give an array): the number, or null when not 1–100. */
export function pageLimitOf(value: unknown): number | null {
  if (value === undefined) return PAGE_LIMIT.default;
  if (typeof value !== 'string' || !LIMIT_TEXT.test(value)) return null;
  const n = Number(value);
  return n >= PAGE_LIMIT.min && n <= PAGE_LIMIT.max ? n : null;
}

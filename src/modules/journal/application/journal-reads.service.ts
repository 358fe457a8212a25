import { Injectable } from '@nestjs/common';
import { CommitOrderCursor } from '../../../shared/crypto/commit-order-cursor';
import { SecretBox, TAG_CONTEXT } from '../../../shared/crypto/secret-box';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { isCalendarDate } from '../../../shared/domain/calendar-date';
import { COMMIT_ORDER_START, PAGE_LIMIT, pageLimitOf } from '../../../shared/domain/commit-order';
import { NotFoundError, toInputError, type Violation } from '../../../shared/domain/errors';
import { type EntryOwner, JournalEntryReadRepository, type JournalEntryView } from '../domain/journal-entry-read';

/** CONTRACT §17: a page of the app's entries. */
export interface JournalEntriesPage {
  data: JournalEntryView[];
  next_cursor: string;
  has_more: boolean;
}

/** The query of `GET {base}/journal/entries` as it came (a repeated parameter is an array: refused). */
export interface JournalEntriesQuery {
  after?: unknown;
  limit?: unknown;
  posting_date_from?: unknown;
  posting_date_to?: unknown;
  without_attachments?: unknown;
}

const ownerOf = (c: CallerContext): EntryOwner => ({ organizationId: c.organizationId, appId: c.appId, environment: c.environment });

/**
 * Reading back what an app posted (CONTRACT §17): its own entries only, in commit order, from a cursor of
 * the events feed's kind (CommitOrderCursor, its own tag context: a feed cursor is not an entries cursor).
 */
@Injectable()
export class JournalReadsService {
  private readonly cursors: CommitOrderCursor;

  constructor(
    private readonly entries: JournalEntryReadRepository,
    box: SecretBox,
  ) {
    this.cursors = new CommitOrderCursor(box, TAG_CONTEXT.journalEntriesCursor);
  }

  async page(caller: CallerContext, query: JournalEntriesQuery): Promise<JournalEntriesPage> {
    const violations: Violation[] = [];
    const bad = (pointer: string, detail: string) => violations.push({ pointer, code: 'invalid_input', detail });
    const after = query.after === undefined ? COMMIT_ORDER_START : this.cursors.positionOf(caller, query.after);
    if (after === null) bad('/after', 'must be a next_cursor this list issued to this app');
    const limit = pageLimitOf(query.limit);
    if (limit === null) bad('/limit', `must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`);
    const from = dateOf(query.posting_date_from);
    if (from === undefined) bad('/posting_date_from', 'must be a calendar date YYYY-MM-DD');
    const to = dateOf(query.posting_date_to);
    if (to === undefined) bad('/posting_date_to', 'must be a calendar date YYYY-MM-DD');
    const without = booleanOf(query.without_attachments);
    if (without === undefined) bad('/without_attachments', 'must be true or false');
    if (violations.length > 0 || after === null || limit === null || from === undefined || to === undefined || without === undefined) {
      throw toInputError(violations);
    }

    const rows = await this.entries.page(ownerOf(caller), after, limit + 1, {
      postingDateFrom: from,
      postingDateTo: to,
      withoutAttachments: without,
    });
    const listed = rows.slice(0, limit);
    const last = listed.length > 0 ? listed[listed.length - 1].position : after;
    return { data: listed.map((r) => r.entry), next_cursor: this.cursors.cursorOf(caller, last), has_more: rows.length > limit };
  }

  /** The developer console's **Sandbox entries** (CONTRACT §15): the app's latest sandbox entries, newest first. */
  newestSandboxEntries(organizationId: string, appId: string, limit: number): Promise<JournalEntryView[]> {
    return this.entries.newest({ organizationId, appId, environment: 'sandbox' }, limit);
  }

  /** CONTRACT §17: any entry but the app's own in its environment and organization is 404, the same body. */
  async entry(caller: CallerContext, id: string): Promise<JournalEntryView> {
    const found = await this.entries.entry(ownerOf(caller), id);
    if (!found) throw new NotFoundError('journal entry');
    return found;
  }
}

/** null: not given; undefined: not a calendar date. */
function dateOf(value: unknown): string | null | undefined {
  if (value === undefined) return null;
  return isCalendarDate(value) ? value : undefined;
}

/** false when not given; undefined: neither `true` nor `false`. */
function booleanOf(value: unknown): boolean | undefined {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : undefined;
}

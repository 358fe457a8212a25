import type { CommitPosition } from '../../../shared/domain/commit-order';
import type { Environment } from '../../../shared/domain/caller-context';

/** CONTRACT §17 `<attachment>` as an entry lists it. */
export interface EntryAttachmentView {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

/** CONTRACT §17 `<entry>`: the normalized input as posted, lines in posted order, amounts as integers. */
export interface JournalEntryView {
  id: string;
  voucher_year: number;
  voucher_number: number;
  posting_date: string;
  transaction_date: string | null;
  document_date: string | null;
  description: string | null;
  currency: string;
  lines: Array<{
    account_id: string;
    debit_minor: number;
    credit_minor: number;
    tax_code_id: string | null;
    dimension_refs: unknown[];
    line_text: string | null;
  }>;
  attachments: EntryAttachmentView[];
  operation_id: string;
  posted_at: string;
  /** CONTRACT §19: the entry this one reverses, and the entry that reverses this one */
  reverses: string | null;
  reversed_by: string | null;
  /** CONTRACT §19: the app and the owner's grant it was registered under, as they were then */
  registered_by: { app_id: string; app_name: string | null; grant_id: string | null };
}

/** Whose entries: the app's own, in the token's environment and organization (CONTRACT §17). */
export interface EntryOwner {
  organizationId: string;
  appId: string;
  environment: Environment;
}

export interface EntryFilter {
  /** inclusive calendar dates (CONTRACT §5), or null */
  postingDateFrom: string | null;
  postingDateTo: string | null;
  withoutAttachments: boolean;
}

/** Port: the app's journal entries as CONTRACT §17 reads them. */
export abstract class JournalEntryReadRepository {
  /**
   * At most `limit` of the owner's entries after `after` that pass `filter`, in commit order (xid, id),
   * of transactions that ended before every transaction of this database still running took its id
   * (docs/adr/0011-journal-entries-commit-order.md), each with its position.
   */
  abstract page(
    owner: EntryOwner,
    after: CommitPosition,
    limit: number,
    filter: EntryFilter,
  ): Promise<Array<{ entry: JournalEntryView; position: CommitPosition }>>;
  /** The owner's latest `limit` entries, newest first (the developer console's sandbox entries, CONTRACT §15). */
  abstract newest(owner: EntryOwner, limit: number): Promise<JournalEntryView[]>;
  /** The owner's entry `id` (lower-case uuid), or null for any other id. */
  abstract entry(owner: EntryOwner, id: string): Promise<JournalEntryView | null>;
}

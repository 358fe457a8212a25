import type { Transaction } from '../../../shared/domain/transaction';

/** One entry an app posted, as the owner's Connected apps page lists it (CONTRACT §18 "Activity"). */
export interface ActivityEntry {
  id: string;
  voucherYear: number;
  voucherNumber: number;
  /** the calendar date, `YYYY-MM-DD` */
  postingDate: string;
  description: string | null;
  /** øre, exact (bigint as text from the database) */
  totalDebitMinor: string;
  attachments: number;
  /** the attachments themselves (id and name), in the order they were attached */
  files: Array<{ id: string; filename: string }>;
  /** CONTRACT §19: the voucher this entry reverses, or null */
  reverses: { voucherYear: number; voucherNumber: number } | null;
}

/** One line of an entry, for the accountant's CSV. */
export interface ActivityLine extends Omit<ActivityEntry, 'totalDebitMinor' | 'files' | 'reverses'> {
  lineNo: number;
  accountNumber: string;
  accountName: string;
  debitMinor: string;
  creditMinor: string;
  lineText: string | null;
}

/**
 * Port (reads for other modules, e.g. the owner's pages): the production entries an app posted to an
 * organization, newest first (posting time, then id), inside the caller's transaction, with the number
 * of attachments of each (CONTRACT §17).
 */
export abstract class JournalActivityRepository {
  abstract entries(tx: Transaction, organizationId: string, appId: string, page: { limit: number; offset: number }): Promise<ActivityEntry[]>;
  /** Every line of every such entry (the CSV), in the entries' order and then by line number; at most `maxLines`. */
  abstract lines(tx: Transaction, organizationId: string, appId: string, maxLines: number): Promise<ActivityLine[]>;
}

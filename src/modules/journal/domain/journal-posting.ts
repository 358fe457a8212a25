import type { NumberedStep } from '../../../shared/domain/row-insert';
import type { Transaction } from '../../../shared/domain/transaction';
import { DomainError } from '../../../shared/domain/errors';
import type { JournalInput } from './journal-input';
import type { Environment } from '../../../shared/domain/caller-context';

/** seed 7.4: the accounting core rejects a posting into a closed period, even after a green prepare. */
export class PeriodLockedError extends DomainError {
  constructor(period: string) {
    super('period_locked', `The period ${period} of posting_date is closed`);
  }
}

/** CONTRACT §19: an entry is reversed at most once, and a reversal is never reversed (409 resource_conflict). */
export class EntryAlreadyReversedError extends DomainError {
  constructor() {
    super('resource_conflict', 'The entry is already reversed, or is itself a reversal');
  }
}

export interface NewJournalEntry {
  id: string;
  organizationId: string;
  environment: Environment;
  appId: string;
  /** CONTRACT §19 registered_by: the grant the entry is registered under (null in the sandbox) */
  grantId: string | null;
  operationId: string;
  voucherYear: number;
  /** the posting's month (YYYY-MM), whose period lock it takes */
  period: string;
  createdAt: Date;
  input: JournalInput;
  /** CONTRACT §19: the entry this one reverses, or null */
  reverses: string | null;
}

/**
 * Port: the accounting core's writes.
 *
 * Concurrency protocol (PostgreSQL row locks, held to commit):
 * - a posting takes a SHARE lock on its period row (creating the row if needed), a close takes the
 *   row's exclusive lock through its UPDATE: a close waits for postings in flight in that month, and a
 *   posting after (or queued behind) the close sees it closed — no posting commits into a closed month;
 * - the voucher counter row of (organization, year) is incremented with an upsert, whose row lock
 *   serializes postings of that year; a rolled-back posting rolls its increment back, so numbers are
 *   gapless and unique.
 */
export abstract class JournalPostingRepository {
  /**
   * A posting as the numbered step of a one-statement write (OneStatementWrite.runNumbered):
   * the period locked and open, the next voucher number, the entry and its lines — no transaction
   * held open across round trips, so the counter's row lock lasts only to the statement's commit.
   */
  abstract numberedEntry(entry: NewJournalEntry): NumberedStep;
  /**
   * Several postings as ONE numbered step (CONTRACT §19 batch): every period locked and open, the
   * voucher numbers of each year taken consecutively in input order, every entry and its lines — or
   * nothing. The claim's response gets `entries`: `[{id, voucher_year, voucher_number}]` in input order.
   */
  abstract numberedEntries(entries: readonly NewJournalEntry[]): NumberedStep;
  /** Closes a period of an organization (idempotent). */
  abstract closePeriod(tx: Transaction, organizationId: string, period: string): Promise<void>;
}

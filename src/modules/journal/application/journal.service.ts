import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import { calendarMonthOf, calendarYearOf } from '../../../shared/domain/calendar-date';
import type { CallerContext, Environment } from '../../../shared/domain/caller-context';
import { CreateOnceService, type NewResource } from '../../idempotency';
import { DomainError } from '../../../shared/domain/errors';
import { assertBalanced } from '../domain/journal-balance';
import type { JournalInput } from '../domain/journal-input';
import { EntryAlreadyReversedError, JournalPostingRepository, type NewJournalEntry } from '../domain/journal-posting';
import { assertReferencesAllowed, JournalReferenceRepository } from '../domain/journal-references';
import { ReversalBeforeEntryError, reversalOf, type ReversalRequest } from '../domain/journal-reversal';
import { JOURNAL_BATCH, JOURNAL_POST, JOURNAL_REVERSE } from '../domain/journal-operations';
import { JournalReadsService } from './journal-reads.service';

/** seed 2.3 / CONTRACT §7: the prepare result, exactly. */
export interface PrepareResult {
  valid: true;
  posted: false;
  checked: ['input', 'grant', 'references'];
  not_checked: ['commit_time_period_locks', 'accounting_transaction'];
}

/** CONTRACT §7: the final posting's answer; `environment` only on the first execution. */
export type PostedBody =
  | { id: string; posted: true; voucher_number: number; operation_id: string; replayed: false; environment: Environment }
  | { id: string; posted: true; voucher_number: number; operation_id: string; replayed: true };

/** CONTRACT §19: a reversal's answer; `environment` only on the first execution. */
export type ReversedBody =
  | { id: string; voucher_year: number; voucher_number: number; operation_id: string; replayed: false; environment: Environment; reverses: string }
  | { id: string; voucher_year: number; voucher_number: number; operation_id: string; replayed: true; reverses: string };

/** CONTRACT §19: a batch's answer, entries in input order; `environment` only on the first execution. */
export type BatchBody =
  | { entries: Array<{ id: string; voucher_year: number; voucher_number: number }>; operation_id: string; replayed: false; environment: Environment }
  | { entries: Array<{ id: string; voucher_year: number; voucher_number: number }>; operation_id: string; replayed: true };

/**
 * The journal's exactly-once writes (CreateOnceService): each re-checks the posting mandate with the grant
 * (CONTRACT §8) and stores its receipt and `operation.completed` event with the entries.
 */

/** A journal of a batch as the one posting would answer, its pointers prefixed by its place (CONTRACT §19). */
function inJournal(i: number, err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  const violations = err.violations?.map((v) => ({ ...v, pointer: `/journals/${i}${v.pointer}` }));
  return new DomainError(err.code, `/journals/${i}: ${err.detail}`, violations, err.headers);
}

@Injectable()
export class JournalService {
  constructor(
    private readonly references: JournalReferenceRepository,
    private readonly posting: JournalPostingRepository,
    private readonly once: CreateOnceService,
    private readonly transactions: Transactions,
    private readonly reads: JournalReadsService,
  ) {}

  /** One posting of the caller, as create-once made it (CONTRACT §7): what every write of entries numbers and stores. */
  private entryOf(caller: CallerContext, made: NewResource, input: JournalInput, reverses: string | null = null): NewJournalEntry {
    const { id, operationId, createdAt } = made;
    return {
      id,
      organizationId: caller.organizationId,
      environment: caller.environment,
      appId: caller.appId,
      grantId: caller.grantId,
      operationId,
      voucherYear: calendarYearOf(input.posting_date),
      period: calendarMonthOf(input.posting_date),
      createdAt,
      input,
      reverses,
    };
  }

  /** The checks of one journal before it is numbered (CONTRACT §3 step 7): balance, then references. */
  private async checkJournal(caller: CallerContext, input: JournalInput): Promise<void> {
    assertBalanced(input.lines);
    // references as read with the token (a look-up only for ids it did not cover)
    await assertReferencesAllowed(this.references, caller.organizationId, caller.permittedAccounts, input.lines, undefined, caller.prefetched.references);
  }

  /**
   * seed 4.1: a dry-run check with no side effects — nothing is written (no receipt, no idempotency
   * record, no voucher number, no lock, no event). Input was checked by the validation pipe and the
   * grant by the guard; here balance, then references (CONTRACT §3 step 7).
   */
  async prepare(caller: CallerContext, input: JournalInput): Promise<PrepareResult> {
    assertBalanced(input.lines);
    await assertReferencesAllowed(this.references, caller.organizationId, caller.permittedAccounts, input.lines, undefined, caller.prefetched.references);
    return {
      valid: true,
      posted: false,
      checked: ['input', 'grant', 'references'],
      not_checked: ['commit_time_period_locks', 'accounting_transaction'],
    };
  }

  /**
   * The final posting (seed 1, 4.1 rule 6; CONTRACT §7): every prepare check again under current
   * access — a green prepare is no ticket — then, as ONE statement with the idempotency record: the
   * grant and posting mandate re-checked FOR SHARE (CONTRACT §8), the period locked and open, the next
   * gapless voucher number, the entry and its lines, the receipt and the outbox row. Any rejection
   * writes nothing, voucher number included. Postings of the same organization and year that arrive
   * while one is in progress may share a transaction (OneStatementWrite.runNumbered), each still
   * all-or-nothing.
   */
  async post(caller: CallerContext, key: string, input: JournalInput): Promise<PostedBody> {
    // a replay is answered from the record read with the token before any of this is built
    const build = (made: NewResource) => {
      const entry = this.entryOf(caller, made, input);
      // the first execution's body; the statement fills in the voucher number it takes
      const response = {
        id: entry.id,
        posted: true as const,
        voucher_number: 0,
        operation_id: entry.operationId,
        replayed: false as const,
        environment: caller.environment,
      };
      return { response, step: this.posting.numberedEntry(entry) };
    };
    const body = await this.once.createNumbered(caller, key, JOURNAL_POST, input, build, () => this.checkJournal(caller, input));
    return body as PostedBody;
  }

  /**
   * CONTRACT §19: a correction as a new entry — the reversed entry's lines in their order, debit and
   * credit swapped, posted exactly as POST /journal posts (the same numbered step: mandate, period lock,
   * gapless voucher number, receipt `journal.reverse` and its event, under the key). Only the app's own
   * entry (404 otherwise, before the key: an entry is never removed, so a replay always finds it); one
   * reversal per entry and none of a reversal (409; the unique index on `reverses` settles a race).
   */
  async reverse(caller: CallerContext, key: string, entryId: string, request: ReversalRequest): Promise<ReversedBody> {
    const reversed = await this.reads.entry(caller, entryId);
    const input = reversalOf(reversed, request);
    const build = (made: NewResource) => {
      const entry = this.entryOf(caller, made, input, reversed.id);
      const response = {
        id: entry.id,
        voucher_year: entry.voucherYear,
        voucher_number: 0,
        operation_id: entry.operationId,
        replayed: false as const,
        environment: caller.environment,
        reverses: reversed.id,
      };
      return { response, step: this.posting.numberedEntry(entry) };
    };
    const check = async () => {
      if (request.posting_date < reversed.posting_date) throw new ReversalBeforeEntryError();
      if (reversed.reverses !== null || reversed.reversed_by !== null) throw new EntryAlreadyReversedError();
    };
    const body = await this.once.createNumbered(caller, key, JOURNAL_REVERSE, { entry_id: reversed.id, ...request }, build, check);
    return body as ReversedBody;
  }

  /**
   * CONTRACT §19: up to 100 journals as N postings of ONE statement — all or nothing. Each journal is
   * checked as POST /journal checks one (balance, then references; input by the pipe, period locks by
   * the statement), its pointers prefixed by its place; the voucher numbers of each year are
   * consecutive in input order. One receipt `journal.batch` (resource: the operation) and one event.
   */
  async postBatch(caller: CallerContext, key: string, journals: JournalInput[]): Promise<BatchBody> {
    const build = (made: NewResource) => ({
      // the statement fills in `entries` with the numbers it takes
      response: { entries: [] as BatchBody['entries'], operation_id: made.operationId, replayed: false as const, environment: caller.environment },
      step: this.posting.numberedEntries(journals.map((input) => this.entryOf(caller, { ...made, id: randomUUID() }, input))),
      // the receipt names the batch by its operation
      resourceId: made.operationId,
    });
    const check = async () => {
      for (const [i, input] of journals.entries()) await this.checkJournal(caller, input).catch((err: unknown) => Promise.reject(inJournal(i, err)));
    };
    const body = await this.once.createNumbered(caller, key, JOURNAL_BATCH, { journals }, build, check);
    return body as BatchBody;
  }

  /** Closes a month of an organization; postings into it are rejected from then on (period_locked). */
  async closePeriod(organizationId: string, period: string): Promise<{ period: string; closed: true }> {
    await this.transactions.run((m) => this.posting.closePeriod(m, organizationId, period));
    return { period, closed: true };
  }
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import { calendarMonthOf, calendarYearOf } from '../../../shared/domain/calendar-date';
import { Clock } from '../../../shared/domain/clock';
import { WriteAccessService } from '../../auth/grants';
import type { CallerContext, Environment } from '../../../shared/domain/caller-context';
import { IdempotencyService } from '../../idempotency';
import { ReceiptsService } from '../../receipts';
import { assertBalanced } from '../domain/journal-balance';
import type { JournalInput } from '../domain/journal-input';
import { JournalPostingRepository, type NewJournalEntry } from '../domain/journal-posting';
import { assertReferencesAllowed, JournalReferenceRepository } from '../domain/journal-references';

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

@Injectable()
export class JournalService {
  constructor(
    private readonly references: JournalReferenceRepository,
    private readonly posting: JournalPostingRepository,
    private readonly idempotency: IdempotencyService,
    private readonly receipts: ReceiptsService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly writeAccess: WriteAccessService,
  ) {}

  /**
   * seed 4.1: a dry-run check with no side effects — nothing is written (no receipt, no idempotency
   * record, no voucher number, no lock, no event). Input was checked by the validation pipe and the
   * grant by the guard; here balance, then references (CONTRACT §3 step 7).
   */
  async prepare(caller: CallerContext, input: JournalInput): Promise<PrepareResult> {
    assertBalanced(input.lines);
    await assertReferencesAllowed(
      this.references,
      caller.organizationId,
      caller.permittedAccounts,
      input.lines,
      undefined,
      caller.prefetched.references,
    );
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
    const build = () => {
      const id = randomUUID();
      const operationId = randomUUID();
      const createdAt = this.clock.now();
      const entry: NewJournalEntry = {
        id,
        organizationId: caller.organizationId,
        environment: caller.environment,
        appId: caller.appId,
        operationId,
        voucherYear: calendarYearOf(input.posting_date),
        createdAt,
        input,
      };
      return {
        // the first execution's body; the statement fills in the voucher number it takes
        response: {
          id,
          posted: true as const,
          voucher_number: 0,
          operation_id: operationId,
          replayed: false as const,
          environment: caller.environment,
        },
        step: this.posting.numberedEntry(entry, calendarMonthOf(input.posting_date)),
        rows: this.receipts.rowsFor(caller, { operationId, kind: 'journal.post', resourceType: 'journal_entry', resourceId: id, completedAt: createdAt }),
        gate: this.writeAccess.gateFor(caller, { mandate: true }),
      };
    };
    const { body } = await this.idempotency.executeNumbered(
      caller,
      key,
      'journal.post',
      input,
      build,
      async () => {
        assertBalanced(input.lines);
        // references as read with the token (a look-up only for ids it did not cover)
        await assertReferencesAllowed(this.references, caller.organizationId, caller.permittedAccounts, input.lines, undefined, caller.prefetched.references);
      },
    );
    return body as PostedBody;
  }

  /** Closes a month of an organization; postings into it are rejected from then on (period_locked). */
  async closePeriod(organizationId: string, period: string): Promise<{ period: string; closed: true }> {
    await this.transactions.run((m) => this.posting.closePeriod(m, organizationId, period));
    return { period, closed: true };
  }
}

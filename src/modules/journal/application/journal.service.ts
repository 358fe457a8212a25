import { Injectable } from '@nestjs/common';
import type { CallerContext } from '../../auth/domain/caller-context';
import { assertBalanced } from '../domain/journal-balance';
import type { JournalInput } from '../domain/journal-input';
import { assertReferencesAllowed, JournalReferenceRepository } from '../domain/journal-references';

/** seed 2.3 / CONTRACT §7: the prepare result, exactly. */
export interface PrepareResult {
  valid: true;
  posted: false;
  checked: ['input', 'grant', 'references'];
  not_checked: ['commit_time_period_locks', 'accounting_transaction'];
}

@Injectable()
export class JournalService {
  constructor(private readonly references: JournalReferenceRepository) {}

  /**
   * seed 4.1: a dry-run check with no side effects — nothing is written (no receipt, no idempotency
   * record, no voucher number, no lock, no event). Input was checked by the validation pipe and the
   * grant by the guard; here balance, then references (CONTRACT §3 step 7).
   */
  async prepare(caller: CallerContext, input: JournalInput): Promise<PrepareResult> {
    assertBalanced(input.lines);
    await assertReferencesAllowed(this.references, caller.organizationId, caller.permittedAccounts, input.lines);
    return {
      valid: true,
      posted: false,
      checked: ['input', 'grant', 'references'],
      not_checked: ['commit_time_period_locks', 'accounting_transaction'],
    };
  }
}

import { DomainError } from '../../../shared/domain/errors';
import { sumMinorOf } from '../../../shared/domain/money';

/**
 * CONTRACT §4 `journal_unbalanced` (422). The detail repeats only the two sums of the caller's own
 * lines, nothing from the books.
 */
export class JournalUnbalancedError extends DomainError {
  constructor(debitsMinor: bigint, creditsMinor: bigint) {
    super('journal_unbalanced', `The sum of debits (${debitsMinor} øre) differs from the sum of credits (${creditsMinor} øre)`);
  }
}

/**
 * The balance rule (CONTRACT §3 step 7, §5): the sum of debits equals the sum of credits, compared
 * exactly with bigint because 500 lines of MAX_MINOR exceed 2^53 and a one-øre difference must still
 * count. Lines are expected to be validated and normalized already (null amounts are 0).
 * @throws JournalUnbalancedError when the sums differ.
 */
export function assertBalanced(lines: ReadonlyArray<{ debit_minor: number; credit_minor: number }>): void {
  const debits = sumMinorOf(lines, (line) => line.debit_minor);
  const credits = sumMinorOf(lines, (line) => line.credit_minor);
  if (debits !== credits) throw new JournalUnbalancedError(debits, credits);
}

import type { Transaction } from '../../../shared/domain/transaction';
import { DomainError, type Violation } from '../../../shared/domain/errors';
import type { PermittedAccounts, PrefetchedReferences } from '../../../shared/domain/caller-context';
import { lowerCaseId } from '../../../shared/domain/lower-case-id';
import type { JournalLineInput } from './journal-input';

/** Port: which of the given ids the caller may reference. One query for all lines. */
export abstract class JournalReferenceRepository {
  /**
   * Of `accountIds`, those that exist in the organization, are active and lie in the permitted set;
   * of `taxCodeIds`, those that exist in the organization. Ids are lower-case.
   */
  abstract findUsable(
    organizationId: string,
    permitted: PermittedAccounts,
    accountIds: string[],
    taxCodeIds: string[],
    manager?: Transaction,
  ): Promise<{ accounts: Set<string>; taxCodes: Set<string> }>;
}

/**
 * seed 7 `reference_not_allowed`; CONTRACT §4: every cause (missing, foreign, inactive, outside the
 * grant) gives the identical body apart from pointers and request id — no name, no owner, no hint.
 */
export class ReferenceNotAllowedError extends DomainError {
  constructor(violations: Violation[]) {
    // CONTRACT §4: errors[] lists at most 100 entries; the detail then states the total
    const total = violations.length > 100 ? ` (${violations.length} violations; the first 100 are listed)` : '';
    super('reference_not_allowed', `A referenced account or tax code may not be used; see errors${total}`, violations);
  }
}

export const ACCOUNT_NOT_ALLOWED = 'is not an account this app may use';
export const TAX_CODE_NOT_ALLOWED = 'is not a tax code of the organization';

/**
 * Checks every line's references; throws one error naming each offending field. `prefetched` (read
 * with the token) answers without a query when it covers every id the lines name. The distinct ids are
 * checked first; the lines are walked again only when one of them is not usable, to name the fields
 * that reference it (a valid 500-line journal naming two accounts checks two ids, not 500 lines).
 */
export async function assertReferencesAllowed(
  repository: JournalReferenceRepository,
  organizationId: string,
  permitted: PermittedAccounts,
  lines: readonly JournalLineInput[],
  manager?: Transaction,
  prefetched: PrefetchedReferences | null = null,
): Promise<void> {
  const accountIds = new Set<string>();
  const taxCodeIds = new Set<string>();
  // each distinct id as sent is lower-cased once (a journal names few ids on many lines)
  const sentAccountIds = new Set<string>();
  for (const line of lines) {
    if (!sentAccountIds.has(line.account_id)) {
      sentAccountIds.add(line.account_id);
      accountIds.add(lowerCaseId(line.account_id));
    }
    if (line.tax_code_id) taxCodeIds.add(lowerCaseId(line.tax_code_id));
  }
  const covered = prefetched !== null && allIn(accountIds, prefetched.accountIds) && allIn(taxCodeIds, prefetched.taxCodeIds);
  const usable = covered
    ? { accounts: prefetched.usableAccounts, taxCodes: prefetched.usableTaxCodes }
    : await repository.findUsable(organizationId, permitted, [...accountIds], [...taxCodeIds], manager);
  if (allIn(accountIds, usable.accounts) && allIn(taxCodeIds, usable.taxCodes)) return;
  const violations: Violation[] = [];
  lines.forEach((line, i) => {
    if (!usable.accounts.has(lowerCaseId(line.account_id))) {
      violations.push({ pointer: `/lines/${i}/account_id`, code: 'reference_not_allowed', detail: ACCOUNT_NOT_ALLOWED });
    }
    if (line.tax_code_id && !usable.taxCodes.has(lowerCaseId(line.tax_code_id))) {
      violations.push({ pointer: `/lines/${i}/tax_code_id`, code: 'reference_not_allowed', detail: TAX_CODE_NOT_ALLOWED });
    }
  });
  throw new ReferenceNotAllowedError(violations);
}

function allIn(ids: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
  for (const id of ids) if (!known.has(id)) return false;
  return true;
}

import type { AccessLookups } from '../../../shared/domain/caller-context';
import { lowerCaseId } from '../../../shared/domain/lower-case-id';
import { isUuid } from '../../../shared/http/validation/constraints';
import { MAX_BATCH_JOURNALS } from './journal.request.dto';

/** seed 2.1: at most 500 lines; a longer body fails validation and needs no look-up. */
const MAX_LINES = 500;

/**
 * For a prepare: the guard reads, with the token, which of the accounts and tax codes the body names
 * the caller may use. The body is not validated yet, so only well-formed uuids are taken; the service
 * looks up anything this did not cover (JournalService.prepare).
 */
export function journalReferencesPrefetch(req: { body: unknown }): Partial<AccessLookups> {
  return referencesOf([(req.body as { lines?: unknown } | null)?.lines]);
}

/** The same for a batch (CONTRACT §19): the references of every journal, read in one look-up with the token (a longer batch fails validation). */
export function journalBatchReferencesPrefetch(req: { body: unknown }): Partial<AccessLookups> {
  const journals = (req.body as { journals?: unknown } | null)?.journals;
  if (!Array.isArray(journals) || journals.length > MAX_BATCH_JOURNALS) return {};
  return referencesOf(journals.map((j: unknown) => (j as { lines?: unknown } | null)?.lines));
}

function referencesOf(journals: unknown[]): Partial<AccessLookups> {
  if (!journals.every((lines) => Array.isArray(lines) && lines.length <= MAX_LINES)) return {};
  const accountIds = new Set<string>();
  const taxCodeIds = new Set<string>();
  // a journal names few distinct ids on many lines: each distinct string is checked and lower-cased once
  const seenAccounts = new Set<unknown>();
  const seenTaxCodes = new Set<unknown>();
  for (const line of (journals as unknown[][]).flat()) {
    if (line === null || typeof line !== 'object') continue;
    const { account_id: account, tax_code_id: taxCode } = line as { account_id?: unknown; tax_code_id?: unknown };
    if (!seenAccounts.has(account)) {
      seenAccounts.add(account);
      if (isUuid(account)) accountIds.add(lowerCaseId(account));
    }
    if (taxCode !== null && taxCode !== undefined && !seenTaxCodes.has(taxCode)) {
      seenTaxCodes.add(taxCode);
      if (isUuid(taxCode)) taxCodeIds.add(lowerCaseId(taxCode));
    }
  }
  return { references: { accountIds: [...accountIds], taxCodeIds: [...taxCodeIds] } };
}

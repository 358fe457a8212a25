import type { PermittedAccounts, PrefetchedReferences } from '../../../shared/domain/caller-context';
import type { JournalLineInput } from './journal-input';
import { ACCOUNT_NOT_ALLOWED, assertReferencesAllowed, JournalReferenceRepository, ReferenceNotAllowedError, TAX_CODE_NOT_ALLOWED } from './journal-references';

const ACCOUNT_A = '0b9a6f0e-3c1d-4c59-9f43-1f6d2a7e5b10';
const ACCOUNT_B = '5e2c8d41-7a3b-4f0e-8c6d-9b1a2e3f4c50';
const ACCOUNT_FOREIGN = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const TAX = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';
const TAX_UNKNOWN = '11111111-2222-4333-8444-555555555555';
const ORG = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const PERMITTED: PermittedAccounts = { kind: 'organization' };

const line = (account: string, tax: string | null = null): JournalLineInput => ({
  account_id: account,
  debit_minor: 100,
  credit_minor: 0,
  tax_code_id: tax,
  dimension_refs: [],
  line_text: null,
});

/** A repository that records its calls and knows the given usable ids. */
function repositoryKnowing(accounts: string[], taxCodes: string[]) {
  const calls: Array<{ accountIds: string[]; taxCodeIds: string[] }> = [];
  const repository = new (class extends JournalReferenceRepository {
    async findUsable(_org: string, _permitted: PermittedAccounts, accountIds: string[], taxCodeIds: string[]) {
      calls.push({ accountIds, taxCodeIds });
      return { accounts: new Set(accounts.filter((id) => accountIds.includes(id))), taxCodes: new Set(taxCodes.filter((id) => taxCodeIds.includes(id))) };
    }
  })();
  return { repository, calls };
}

const prefetched = (looked: string[], usable: string[], taxLooked: string[] = [], taxUsable: string[] = []): PrefetchedReferences => ({
  accountIds: new Set(looked),
  taxCodeIds: new Set(taxLooked),
  usableAccounts: new Set(usable),
  usableTaxCodes: new Set(taxUsable),
});

async function rejection(promise: Promise<void>): Promise<ReferenceNotAllowedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ReferenceNotAllowedError) return error;
    throw error;
  }
  throw new Error('expected reference_not_allowed');
}

describe('assertReferencesAllowed', () => {
  it('accepts 500 lines over two usable accounts and a tax code from the prefetched look-up, ids in any case, without a query', async () => {
    const { repository, calls } = repositoryKnowing([], []);
    const lines = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? line(ACCOUNT_A.toUpperCase(), TAX) : line(ACCOUNT_B)));
    await expect(
      assertReferencesAllowed(repository, ORG, PERMITTED, lines, undefined, prefetched([ACCOUNT_A, ACCOUNT_B], [ACCOUNT_A, ACCOUNT_B], [TAX], [TAX])),
    ).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('looks up the distinct lower-case ids once when the prefetched ones do not cover them', async () => {
    const { repository, calls } = repositoryKnowing([ACCOUNT_A, ACCOUNT_B], [TAX]);
    const lines = [line(ACCOUNT_A), line(ACCOUNT_B.toUpperCase(), TAX), line(ACCOUNT_A, TAX.toUpperCase())];
    await expect(assertReferencesAllowed(repository, ORG, PERMITTED, lines, undefined, prefetched([ACCOUNT_A], [ACCOUNT_A]))).resolves.toBeUndefined();
    expect(calls).toEqual([{ accountIds: [ACCOUNT_A, ACCOUNT_B], taxCodeIds: [TAX] }]);
  });

  it('names exactly the fields that reference an unusable id, in line order, account before tax code', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => line(i % 2 === 0 ? ACCOUNT_A : ACCOUNT_B));
    lines[250] = line(ACCOUNT_FOREIGN);
    lines[3] = line(ACCOUNT_B, TAX_UNKNOWN);
    lines[7] = line(ACCOUNT_FOREIGN.toUpperCase(), TAX_UNKNOWN);
    const { repository } = repositoryKnowing([ACCOUNT_A, ACCOUNT_B], [TAX]);
    const error = await rejection(assertReferencesAllowed(repository, ORG, PERMITTED, lines));
    expect(error.code).toBe('reference_not_allowed');
    expect(error.violations).toEqual([
      { pointer: '/lines/3/tax_code_id', code: 'reference_not_allowed', detail: TAX_CODE_NOT_ALLOWED },
      { pointer: '/lines/7/account_id', code: 'reference_not_allowed', detail: ACCOUNT_NOT_ALLOWED },
      { pointer: '/lines/7/tax_code_id', code: 'reference_not_allowed', detail: TAX_CODE_NOT_ALLOWED },
      { pointer: '/lines/250/account_id', code: 'reference_not_allowed', detail: ACCOUNT_NOT_ALLOWED },
    ]);
  });

  it("refuses a tax code that is not the organization's when every account is usable", async () => {
    const { repository } = repositoryKnowing([ACCOUNT_A, ACCOUNT_B], [TAX]);
    const error = await rejection(assertReferencesAllowed(repository, ORG, PERMITTED, [line(ACCOUNT_A, TAX), line(ACCOUNT_B, TAX_UNKNOWN)]));
    expect(error.violations).toEqual([{ pointer: '/lines/1/tax_code_id', code: 'reference_not_allowed', detail: TAX_CODE_NOT_ALLOWED }]);
  });

  it('refuses an id the prefetched look-up found unusable (foreign, inactive or outside the grant) without a query', async () => {
    const { repository, calls } = repositoryKnowing([ACCOUNT_A, ACCOUNT_FOREIGN], []);
    const error = await rejection(
      assertReferencesAllowed(
        repository,
        ORG,
        PERMITTED,
        [line(ACCOUNT_A), line(ACCOUNT_FOREIGN)],
        undefined,
        prefetched([ACCOUNT_A, ACCOUNT_FOREIGN], [ACCOUNT_A]),
      ),
    );
    expect(error.violations).toEqual([{ pointer: '/lines/1/account_id', code: 'reference_not_allowed', detail: ACCOUNT_NOT_ALLOWED }]);
    expect(calls).toEqual([]);
  });
});

import type { Transaction } from '../../../../shared/domain/transaction';
import type { Environment } from '../../../../shared/domain/caller-context';

/** Port: organizations and their chart (accounts, tax codes). Ids are lower-case uuids. */
export abstract class OrganizationRepository {
  abstract create(tx: Transaction, organization: { id: string; name: string; environment: Environment; demo?: boolean }): Promise<void>;
  /** The organization's chart in one go (a new organization's: no number or code is taken yet). */
  abstract createChart(
    tx: Transaction,
    organizationId: string,
    accounts: ReadonlyArray<{ id: string; number: string; name: string }>,
    taxCodes: ReadonlyArray<{ id: string; code: string; rateBasisPoints: number }>,
  ): Promise<void>;
  /**
   * Locks the organization row (FOR NO KEY UPDATE) until the transaction ends, serializing the grants
   * and mandates given for it. Not FOR UPDATE: that would also block every insert referencing the
   * organization (their foreign-key check takes FOR KEY SHARE), among them the idempotency claim, whose
   * lock wait must mean only "the same key is still running" (CONTRACT §6). False when there is no such
   * organization.
   */
  abstract lock(tx: Transaction, organizationId: string): Promise<boolean>;
  /** False when the organization already has an account with this number (nothing is written). */
  abstract createAccount(tx: Transaction, organizationId: string, account: { id: string; number: string; name: string }): Promise<boolean>;
  /** The account's id after deactivating it (idempotent), or null when there is no such account. */
  abstract deactivateAccount(tx: Transaction, accountId: string): Promise<string | null>;
  /** False when the organization already has a tax code with this code (nothing is written). */
  abstract createTaxCode(tx: Transaction, organizationId: string, taxCode: { id: string; code: string; rateBasisPoints: number }): Promise<boolean>;
  /** How many organizations there are (outside any transaction: the first start asks). */
  abstract count(): Promise<number>;
  /** Which of `accountIds` are accounts of the organization (active or not). */
  abstract existingAccountIds(tx: Transaction, organizationId: string, accountIds: string[]): Promise<Set<string>>;
}

import type { Transaction } from '../../../../shared/domain/transaction';

/** What the operator sees of an organization (CONTRACT §10): never a secret. */
export interface OrganizationView {
  id: string;
  name: string;
  /** a developer's demo company (CONTRACT §15): listed as such, never a customer */
  demo: boolean;
  accounts: Array<{ id: string; number: string; name: string; active: boolean }>;
  tax_codes: Array<{ id: string; code: string; rate_basis_points: number }>;
  owners: Array<{ user_id: string; email: string }>;
}

/**
 * Port (reads for other modules): the console's read of an organization with its chart and owners, and
 * the consent pages' reads, which run inside the caller's transaction. Ids are lower-case uuids.
 */
export abstract class OrganizationReadRepository {
  abstract organization(organizationId: string): Promise<OrganizationView | null>;
  /**
   * The organizations the user owns, ordered by name, then id (the database's order: the text collation
   * decides, so callers keep this order rather than sort again).
   */
  abstract ownedBy(tx: Transaction, userId: string): Promise<Array<{ id: string; name: string }>>;
  /**
   * The accounts (active or not) named by the pairs `organizationIds[i]`, `accountIds[i]`, ordered by
   * number (the database's order, as above).
   */
  abstract accounts(
    tx: Transaction,
    organizationIds: string[],
    accountIds: string[],
  ): Promise<Array<{ organizationId: string; id: string; number: string; name: string }>>;
}

import type { PermittedAccounts } from '../../../shared/domain/caller-context';

/** An account a caller may post to, as `GET /accounts` lists it (CONTRACT §7). */
export interface ChartAccount {
  id: string;
  number: string;
  name: string;
}

/** A tax code of the caller's organization, as `GET /tax-codes` lists it (CONTRACT §7). */
export interface ChartTaxCode {
  id: string;
  code: string;
  rate_basis_points: number;
}

/**
 * Port: what a partner may reference in a journal — the same permitted set the reference check of a
 * prepare or a posting uses (seed 2.2 rule 6), so a listed account is never refused and nothing outside
 * the set is listed.
 */
export abstract class ChartReadRepository {
  /** The organization's active accounts inside the permitted set, by number. */
  abstract accounts(organizationId: string, permitted: PermittedAccounts): Promise<ChartAccount[]>;
  /** The organization's tax codes, by code. */
  abstract taxCodes(organizationId: string): Promise<ChartTaxCode[]>;
}

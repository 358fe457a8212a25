import type { Transaction } from '../../../../shared/domain/transaction';

/** What the operator sees of a grant (CONTRACT §10). */
export interface GrantView {
  id: string;
  app_id: string;
  scopes: string[];
  account_ids: string[];
  expires_at: string;
  revoked: boolean;
}

/** A grant in force (neither revoked nor superseded nor expired), as the owner's connections page shows it. */
export interface GrantInForce {
  organizationId: string;
  id: string;
  appId: string;
  scopes: string[];
  grantedAt: Date;
  expiresAt: Date;
  /** the accounts the grant selected */
  accountIds: string[];
  /** whether a posting mandate of (organization, app) is in force */
  mandate: boolean;
}

/** What a production token's grant says, for `GET {base}/grant` (CONTRACT §18). */
export interface TokenGrantState {
  /** as the grant stores them (the order they were asked for) */
  scopes: string[];
  expiresAt: Date;
  /** a posting mandate is in force for the grant's (organization, app) */
  mandate: boolean;
}

/**
 * Port (reads for other modules): the console's read of an organization's grants, newest first, and
 * the consent pages' reads, which run inside the caller's transaction. Ids are lower-case uuids.
 */
export abstract class GrantReadRepository {
  abstract grants(organizationId: string): Promise<GrantView[]>;
  /** The grants of the organizations `organizationIds` in force at `now` (in no particular order). */
  abstract grantsInForce(tx: Transaction, organizationIds: string[], now: Date): Promise<GrantInForce[]>;
  /**
   * The accounts a token may use, by number (the permitted set of CONTRACT §8 that is active, as
   * `GET /accounts` lists it): the grant's selection, or with `grantId` null (sandbox) every active
   * account of the organization.
   */
  abstract permittedAccountIds(organizationId: string, grantId: string | null): Promise<string[]>;
  /** The grant's scopes, expiry and mandate; null when there is no such grant. */
  abstract tokenGrant(organizationId: string, appId: string, grantId: string): Promise<TokenGrantState | null>;
}

import type { Environment } from './access-token';
import type { Scope } from './scopes';

/** Which accounts a caller may reference (seed 2.2 rule 6, CONTRACT §8). */
export type PermittedAccounts =
  /** sandbox: every active account of the project's organization */
  | { kind: 'organization' }
  /** production: the grant's selected accounts (loaded with the references, one query per request) */
  | { kind: 'grant'; grantId: string };

/**
 * Who is calling, as established by the auth guard from the token and current state — never from the
 * payload (seed 2.2 rule 5, 2.4 rule 6). Immutable; the application layer receives only this.
 */
export interface CallerContext {
  readonly environment: Environment;
  readonly organizationId: string;
  readonly appId: string;
  /** production: the customer grant the token was issued under */
  readonly grantId: string | null;
  /** sandbox: the provisioned app generation */
  readonly generationId: string | null;
  readonly scopes: ReadonlySet<Scope>;
  readonly permittedAccounts: PermittedAccounts;
  /** The active posting mandate; checked only on routes that need one, null elsewhere. */
  readonly postingMandateId: string | null;
}

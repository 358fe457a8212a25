import type { Environment } from './access-token';
import type { Prefetched } from './caller-context';

/** What to read together with the token, in the same statement, for the route being called. */
export interface AccessLookups {
  /** the route needs a posting mandate: the active one of (organization, app) */
  mandate: boolean;
  /** uuids (lower-case) named by the body, not yet validated: which of them the caller may use */
  references: { accountIds: string[]; taxCodeIds: string[] } | null;
  /** a well-formed Idempotency-Key: the committed record under it in the token's scope */
  idempotencyKey: string | null;
}

export const NO_LOOKUPS: AccessLookups = Object.freeze({ mandate: false, references: null, idempotencyKey: null });

/** What one token is bound to, read in one look-up by the token's hash. */
export interface TokenRecord {
  environment: Environment;
  organizationId: string;
  appId: string;
  grantId: string | null;
  generationId: string | null;
  appRevisionId: string | null;
  /** sandbox: the project's current generation */
  currentGenerationId: string | null;
  /** production: the grant's state */
  grant: { scopes: string[]; revokedAt: Date | null; supersededAt: Date | null; expiresAt: Date } | null;
  /** production: the app's approved revision now */
  approvedRevisionId: string | null;
  /** the active posting mandate, when AccessLookups.mandate asked for it */
  mandateId: string | null;
  prefetched: Prefetched;
}

/** Port: the access state the guard checks on every call. */
export abstract class AccessRepository {
  /**
   * The token with the state it is checked against and what `lookups` asks for, in one statement, or
   * null for an unknown hash.
   */
  abstract findToken(tokenHash: string, lookups?: AccessLookups): Promise<TokenRecord | null>;
}

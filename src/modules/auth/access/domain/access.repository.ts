import type { AccessLookups, Environment, Prefetched } from '../../../../shared/domain/caller-context';

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
   * null for an unknown hash. `environment` is the base path's: only that environment's token state is
   * read (a token of the other one is still found, and the caller refuses it).
   */
  abstract findToken(tokenHash: string, environment: Environment, lookups?: AccessLookups): Promise<TokenRecord | null>;
}

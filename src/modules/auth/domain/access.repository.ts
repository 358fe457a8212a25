import type { Environment } from './access-token';

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
}

/** Port: the access state the guard checks on every call. */
export abstract class AccessRepository {
  /** The token with the state it is checked against, or null for an unknown hash. */
  abstract findToken(tokenHash: string): Promise<TokenRecord | null>;
  /** The id of an active posting mandate of (organization, app), or null. */
  abstract findActiveMandate(organizationId: string, appId: string): Promise<string | null>;
}

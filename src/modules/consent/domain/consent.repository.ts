import type { Transaction } from '../../../shared/domain/transaction';

/** What `/oauth/authorize` was asked for; kept in the session while the owner signs in and decides. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  organizationId: string | null;
}

export interface ConsentSession {
  idHash: string;
  csrfSecret: string;
  purpose: 'authorize' | 'connections';
  request: AuthorizationRequest | null;
  userId: string | null;
  organizationId: string | null;
  expiresAt: Date;
}

export interface OAuthClient {
  appId: string;
  appName: string;
  approvedRevisionId: string | null;
  secretHash: string | null;
  redirectUris: string[];
}

export interface StoredCode {
  codeHash: string;
  organizationId: string;
  grantId: string;
  appId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  issuedAt: Date;
  usedAt: Date | null;
  tokenHash: string | null;
  /** when the code's grant expires (read with the code) */
  grantExpiresAt: Date;
}

export interface ConnectionRow {
  organizationId: string;
  organizationName: string;
  grantId: string;
  appName: string;
  scopes: string[];
  expiresAt: Date;
  accounts: Array<{ number: string; name: string }>;
}

/**
 * Port: the consent flow's own tables (OAuth clients, sessions, codes, sign-in lockouts) and the
 * reads its pages need. Grants, mandates and tokens are written through the grants module's services.
 */
export abstract class ConsentRepository {
  /** The app and its OAuth registration (secret hash and redirect URIs null/empty when unregistered). */
  abstract findClient(tx: Transaction, appId: string): Promise<OAuthClient | null>;
  abstract saveClient(tx: Transaction, appId: string, secretHash: string, redirectUris: string[], at: Date): Promise<void>;
  abstract appRead(
    tx: Transaction,
    appId: string,
  ): Promise<{ id: string; name: string; revisions: Array<{ id: string; number: number; approved: boolean }>; redirect_uris: string[] } | null>;

  abstract createSession(tx: Transaction, session: ConsentSession, now: Date): Promise<void>;
  abstract findSession(tx: Transaction, idHash: string, now: Date): Promise<ConsentSession | null>;
  /** Sets the signed-in user under a new id and CSRF secret (no session fixation). */
  abstract signInSession(tx: Transaction, idHash: string, next: { idHash: string; csrfSecret: string; userId: string; organizationId: string | null }): Promise<void>;
  abstract chooseOrganization(tx: Transaction, idHash: string, organizationId: string): Promise<void>;
  abstract deleteSession(tx: Transaction, idHash: string): Promise<void>;

  abstract findUserByEmail(tx: Transaction, email: string): Promise<{ userId: string; passwordHash: string | null } | null>;
  abstract ownedOrganizations(tx: Transaction, userId: string): Promise<Array<{ id: string; name: string; environment: string }>>;
  abstract isOwner(tx: Transaction, organizationId: string, userId: string): Promise<boolean>;
  abstract activeAccounts(tx: Transaction, organizationId: string): Promise<Array<{ id: string; number: string; name: string }>>;

  abstract lockedUntil(tx: Transaction, emailKey: string): Promise<Date | null>;
  /** Records a failed sign-in; returns when the email is now locked until, or null. */
  abstract recordFailure(tx: Transaction, emailKey: string, now: Date): Promise<Date | null>;

  abstract insertCode(tx: Transaction, code: Omit<StoredCode, 'usedAt' | 'tokenHash' | 'grantExpiresAt'>): Promise<void>;
  abstract findCodeForUpdate(tx: Transaction, codeHash: string): Promise<StoredCode | null>;
  abstract markCodeUsed(tx: Transaction, codeHash: string, at: Date, tokenHash: string): Promise<void>;
  /** Forgets an access token, so that it is unknown (401 invalid_token); only a token of `appId`. */
  abstract deleteToken(tx: Transaction, tokenHash: string, appId: string): Promise<void>;

  abstract connections(tx: Transaction, userId: string, now: Date): Promise<ConnectionRow[]>;
  /** The grant's organization if the user owns it, else null. */
  abstract grantOwnedBy(tx: Transaction, grantId: string, userId: string): Promise<string | null>;
}

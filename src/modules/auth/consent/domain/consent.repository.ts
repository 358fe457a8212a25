import type { Transaction } from '../../../../shared/domain/transaction';

/** What `/oauth/authorize` was asked for; kept in the session while the owner signs in and decides. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  organizationId: string | null;
  /** CONTRACT §18: the first supported language of the request's `ui_locales` (or the switch used since), null when none */
  uiLocales?: 'da' | 'en' | null;
}

/** A consent-page session (a web session of src/shared/web: `userId` is its subject, the rest its data). */
export interface ConsentSession {
  idHash: string;
  csrfSecret: string;
  purpose: 'authorize' | 'connections';
  request: AuthorizationRequest | null;
  userId: string | null;
  organizationId: string | null;
  expiresAt: Date;
}

/** An app's OAuth registration (consent's own row). */
export interface OAuthClientRegistration {
  secretHash: string;
  /** the secret before the last **New client secret**, while the developer chose to keep it working (CONTRACT §21) */
  previousSecretHash?: string | null;
  redirectUris: string[];
}

/** The app (read from the apps module) with its OAuth registration, if any. */
export interface OAuthClient {
  appId: string;
  appName: string;
  approvedRevisionId: string | null;
  secretHash: string | null;
  previousSecretHash?: string | null;
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

/**
 * Port: the consent flow's own tables (OAuth clients, codes) and the
 * single-owner reads its pages need (from the owners' sql.ts). Apps, grants and organizations are read
 * through their modules' read ports (the services compose them in one transaction); grants, mandates
 * and tokens are written through the grants module's services. Sessions and sign-in lockouts are the
 * page kernel's (src/shared/web).
 */
export abstract class ConsentRepository {
  /** The app's OAuth registration, or null when it has none. */
  abstract findClientRegistration(tx: Transaction, appId: string): Promise<OAuthClientRegistration | null>;
  abstract saveClient(tx: Transaction, appId: string, secretHash: string, redirectUris: string[], at: Date): Promise<void>;
  /**
   * A registered client's new secret; the one it replaces keeps working `keepPreviousSeconds` more (0: not
   * at all). Until when it works (the database's clock, as the look-up reads it), or null.
   */
  abstract replaceSecret(tx: Transaction, appId: string, secretHash: string, keepPreviousSeconds: number, at: Date): Promise<Date | null>;

  abstract userEmail(tx: Transaction, userId: string): Promise<string | null>;
  /**
   * The users who may be signing in with this email, oldest first (at most two: the operator's owner
   * and a developer's demo identity, whose password hash is the developer's: CONTRACT §15).
   */
  abstract findUsersByEmail(tx: Transaction, email: string): Promise<Array<{ userId: string; passwordHash: string | null }>>;
  abstract ownedOrganizations(tx: Transaction, userId: string): Promise<Array<{ id: string; name: string; environment: string; demo: boolean }>>;
  /** The demo company of the developer who made the app (CONTRACT §15), or null. */
  abstract demoOrganizationOfApp(tx: Transaction, appId: string): Promise<string | null>;
  abstract isOwner(tx: Transaction, organizationId: string, userId: string): Promise<boolean>;
  abstract activeAccounts(tx: Transaction, organizationId: string): Promise<Array<{ id: string; number: string; name: string }>>;

  abstract insertCode(tx: Transaction, code: Omit<StoredCode, 'usedAt' | 'tokenHash' | 'grantExpiresAt'>): Promise<void>;
  abstract findCodeForUpdate(tx: Transaction, codeHash: string): Promise<StoredCode | null>;
  abstract markCodeUsed(tx: Transaction, codeHash: string, at: Date, tokenHash: string): Promise<void>;
  /**
   * Forgets an access token, so that it is unknown (401 invalid_token); only a token of `appId`.
   * Returns the grant it was issued under, or null (no such token of the app, or a sandbox token).
   */
  abstract deleteToken(tx: Transaction, tokenHash: string, appId: string): Promise<string | null>;
}

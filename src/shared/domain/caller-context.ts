import type { Scope } from './scopes';

/** Which API a call or a token belongs to: the path and the token's prefix say so (CONTRACT §1, §8). */
export type Environment = 'sandbox' | 'production';

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
  /** production: the app revision the token was issued under (the approved one when the call began) */
  readonly appRevisionId: string | null;
  readonly scopes: ReadonlySet<Scope>;
  readonly permittedAccounts: PermittedAccounts;
  /** The active posting mandate; checked only on routes that need one, null elsewhere. */
  readonly postingMandateId: string | null;
  /** What was read in the same statement as the token (one round trip per request); see AccessLookups. */
  readonly prefetched: Prefetched;
}

/**
 * State read together with the token, at the same instant, so that a prepare or a replay costs one
 * statement. It is a read of committed state like any other read of the request; writes still decide
 * inside their own transaction.
 */
export interface Prefetched {
  /** prepare: of the uuids the body names, those the caller may use (seed 2.2 rule 6) */
  readonly references: PrefetchedReferences | null;
  /** idempotent writes: the committed record under the request's key, if any (CONTRACT §6) */
  readonly idempotency: PrefetchedIdempotencyRecord | null;
}

export interface PrefetchedReferences {
  /** the ids that were looked up (lower-case); an id outside them must be looked up again */
  readonly accountIds: ReadonlySet<string>;
  readonly taxCodeIds: ReadonlySet<string>;
  readonly usableAccounts: ReadonlySet<string>;
  readonly usableTaxCodes: ReadonlySet<string>;
}

export interface PrefetchedIdempotencyRecord {
  readonly key: string;
  readonly record: {
    readonly operation: string;
    readonly fingerprint: string;
    readonly grantId: string | null;
    readonly response: Record<string, unknown>;
  } | null;
}

export const NOTHING_PREFETCHED: Prefetched = Object.freeze({ references: null, idempotency: null });

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

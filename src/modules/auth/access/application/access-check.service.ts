import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../shared/domain/clock';
import { environmentOfPrefix, hashAccessToken, parseAccessToken } from '../domain/access-token';
import {
  AppRevisionChangedError,
  GrantExpiredError,
  GrantRevokedError,
  InsufficientScopeError,
  InvalidTokenError,
  MandateRequiredError,
  MissingTokenError,
  TokenEnvironmentMismatchError,
} from '../domain/access.errors';
import { AccessRepository } from '../domain/access.repository';
import type { AccessLookups, CallerContext, Environment } from '../../../../shared/domain/caller-context';
import { isScope, SCOPES, type Scope } from '../../../../shared/domain/scopes';

export interface AccessRequirement {
  /** the scope the route needs; several: any one of them (CONTRACT §7 `GET /accounts`) */
  scope: Scope | readonly Scope[];
  mandate: boolean;
  /**
   * What to read in the token's statement besides (the body's references for a prepare, the key's
   * record for an idempotent write), from the request as received — before its input is validated.
   */
  prefetch?: ((request: { body: unknown; headers: Record<string, string | string[] | undefined> }) => Partial<AccessLookups>) | null;
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Turns a bearer token into a caller context, re-checking current state on every call (no cache that
 * could outlive a revocation), in CONTRACT §3 step 2–3 and §8 order: missing, wrong environment by
 * prefix, malformed or wrong checksum (no database look-up), unknown or superseded generation (401);
 * grant revoked or superseded, expired, app revision changed, scope, mandate (403).
 */
@Injectable()
export class AccessCheckService {
  constructor(
    private readonly access: AccessRepository,
    private readonly clock: Clock,
  ) {}

  async authenticate(
    authorization: string | undefined,
    pathEnvironment: Environment,
    required: AccessRequirement,
    prefetch: Partial<AccessLookups> = {},
    /**
     * Runs once the token is known (after step 2, before the grant and scope checks of step 3): the
     * rate limit of CONTRACT §12 goes here. It receives the token's hash.
     */
    onTokenKnown?: (tokenHash: string) => Promise<void>,
  ): Promise<CallerContext> {
    const match = authorization === undefined ? null : BEARER.exec(authorization);
    if (!match) throw new MissingTokenError();
    const raw = match[1];
    const prefixEnvironment = environmentOfPrefix(raw);
    if (prefixEnvironment !== null && prefixEnvironment !== pathEnvironment) {
      throw new TokenEnvironmentMismatchError(pathEnvironment);
    }
    if (!parseAccessToken(raw).ok) throw new InvalidTokenError();

    const tokenHash = hashAccessToken(raw);
    const lookups: AccessLookups = { references: null, idempotencyKey: null, ...prefetch, mandate: required.mandate };
    const token = await this.access.findToken(tokenHash, pathEnvironment, lookups);
    if (!token || token.environment !== pathEnvironment) throw new InvalidTokenError();
    if (token.environment === 'sandbox' && (!token.generationId || token.generationId !== token.currentGenerationId)) {
      throw new InvalidTokenError();
    }
    if (onTokenKnown) await onTokenKnown(tokenHash);

    if (token.environment === 'sandbox') {
      return Object.freeze({
        environment: 'sandbox',
        organizationId: token.organizationId,
        appId: token.appId,
        grantId: null,
        generationId: token.generationId,
        appRevisionId: null,
        scopes: new Set<Scope>(SCOPES),
        permittedAccounts: Object.freeze({ kind: 'organization' as const }),
        // the sandbox project comes with a posting mandate (CONTRACT §8)
        postingMandateId: mandate(token.mandateId, required),
        prefetched: token.prefetched,
      });
    }

    const grant = token.grant;
    if (!grant || !token.grantId) throw new InvalidTokenError();
    if (grant.revokedAt || grant.supersededAt) throw new GrantRevokedError();
    if (grant.expiresAt.getTime() <= this.clock.now().getTime()) throw new GrantExpiredError();
    // bound to the revision approved at issue; "none approved" only on the developer's demo company (CONTRACT §15)
    if ((token.appRevisionId ?? null) !== (token.approvedRevisionId ?? null)) throw new AppRevisionChangedError();
    const scopes = new Set(grant.scopes.filter(isScope));
    const anyOf: readonly Scope[] = typeof required.scope === 'string' ? [required.scope] : required.scope;
    if (!anyOf.some((scope) => scopes.has(scope))) throw new InsufficientScopeError(anyOf.join(' '));

    const postingMandateId = mandate(token.mandateId, required);
    return Object.freeze({
      environment: 'production',
      organizationId: token.organizationId,
      appId: token.appId,
      grantId: token.grantId,
      generationId: null,
      appRevisionId: token.appRevisionId,
      scopes,
      permittedAccounts: Object.freeze({ kind: 'grant' as const, grantId: token.grantId }),
      postingMandateId,
      prefetched: token.prefetched,
    });
  }
}

function mandate(found: string | null, required: AccessRequirement): string | null {
  if (!required.mandate) return null;
  if (!found) throw new MandateRequiredError();
  return found;
}

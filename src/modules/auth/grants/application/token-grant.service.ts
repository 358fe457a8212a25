import { Injectable } from '@nestjs/common';
import type { CallerContext, Environment } from '../../../../shared/domain/caller-context';
import { GrantRevokedError } from '../../access';
import { GrantReadRepository } from '../domain/grant-read.repository';

/** CONTRACT §18 `GET {base}/grant`: what this token may do, exactly these members. */
export interface TokenGrantView {
  environment: Environment;
  organization_id: string;
  /** null in the sandbox */
  grant_id: string | null;
  scopes: string[];
  account_ids: string[];
  /** null in the sandbox */
  expires_at: string | null;
  mandate: boolean;
}

/** The partner's read of its own grant (CONTRACT §18), so an integration can tell its user before a call fails. */
@Injectable()
export class TokenGrantService {
  constructor(private readonly reads: GrantReadRepository) {}

  /**
   * The caller's scopes are the ones the guard just checked (a sandbox token has every scope); the
   * accounts are the permitted set that is active, as `GET /accounts` lists them; a sandbox project
   * comes with a posting mandate (CONTRACT §8).
   */
  async view(caller: CallerContext): Promise<TokenGrantView> {
    const scopes = [...caller.scopes];
    if (caller.environment === 'sandbox' || caller.grantId === null) {
      return {
        environment: caller.environment,
        organization_id: caller.organizationId,
        grant_id: null,
        scopes,
        account_ids: await this.reads.permittedAccountIds(caller.organizationId, null),
        expires_at: null,
        mandate: true,
      };
    }
    const [state, accountIds] = await Promise.all([
      this.reads.tokenGrant(caller.organizationId, caller.appId, caller.grantId),
      this.reads.permittedAccountIds(caller.organizationId, caller.grantId),
    ]);
    // the guard found the grant in force a moment ago; a grant cannot be deleted, so this is defensive
    if (!state) throw new GrantRevokedError();
    return {
      environment: 'production',
      organization_id: caller.organizationId,
      grant_id: caller.grantId,
      scopes,
      account_ids: accountIds,
      expires_at: state.expiresAt.toISOString(),
      mandate: state.mandate,
    };
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { GrantService } from '../../grants';
import { hashAccessToken, parseAccessToken } from '../../access';
import { codeExpired } from '../domain/authorization-code';
import { ConsentRepository, type OAuthClient } from '../domain/consent.repository';
import { verifyPkceS256 } from '../domain/pkce';
import { sha256Hex } from '../domain/secrets';

export type TokenResult =
  | { ok: true; body: { access_token: string; token_type: 'Bearer'; expires_in: number; scope: string; organization_id: string; grant_id: string } }
  | { ok: false; error: 'invalid_grant' | 'invalid_request'; description: string };

/** `/oauth/token` (authorization_code) and `/oauth/revoke` for an authenticated client (CONTRACT §11). */
@Injectable()
export class TokenService {
  constructor(
    private readonly repo: ConsentRepository,
    private readonly grants: GrantService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /**
   * One transaction over the code's row (locked): a code is exchanged once. A code presented again is
   * refused and the token it was exchanged for is forgotten (RFC 6749 §4.1.2, §10.5) — committed, so
   * the refusal itself revokes. Every other fault leaves the code as it is.
   */
  async exchange(client: OAuthClient, params: { code: unknown; redirectUri: unknown; codeVerifier: unknown }): Promise<TokenResult> {
    const { code, redirectUri, codeVerifier } = params;
    if (typeof code !== 'string' || code === '' || typeof redirectUri !== 'string' || typeof codeVerifier !== 'string') {
      return { ok: false, error: 'invalid_request', description: 'code, redirect_uri and code_verifier are required' };
    }
    const now = this.clock.now();
    const invalid = (description: string): TokenResult => ({ ok: false, error: 'invalid_grant', description });
    return this.transactions.run(async (m) => {
      const stored = await this.repo.findCodeForUpdate(m, sha256Hex(code));
      if (!stored || stored.appId !== client.appId) return invalid('the code is unknown, expired or used');
      if (stored.usedAt !== null) {
        if (stored.tokenHash) await this.repo.deleteToken(m, stored.tokenHash, stored.appId);
        return invalid('the code is unknown, expired or used');
      }
      if (codeExpired(stored.issuedAt, now)) return invalid('the code is unknown, expired or used');
      if (stored.redirectUri !== redirectUri) return invalid('redirect_uri differs from the authorization request');
      if (!verifyPkceS256(codeVerifier, stored.codeChallenge)) return invalid('code_verifier does not match the code_challenge');
      const token = await this.grants.issueTokenWithin(m, stored.grantId);
      await this.repo.markCodeUsed(m, stored.codeHash, now, hashAccessToken(token));
      return {
        ok: true,
        body: {
          access_token: token,
          token_type: 'Bearer',
          expires_in: Math.max(0, Math.floor((stored.grantExpiresAt.getTime() - now.getTime()) / 1000)),
          scope: stored.scopes.join(' '),
          organization_id: stored.organizationId,
          grant_id: stored.grantId,
        },
      };
    });
  }

  /**
   * RFC 7009: the client's own token is forgotten and, as §2.1 permits, the grant it was issued under is
   * revoked with it (CONTRACT §8 counts `/oauth/revoke` among the revocations; §18: grant.revoked in the
   * same transaction). Anything else (unknown, another app's) is left alone.
   */
  async revoke(client: OAuthClient, token: string): Promise<void> {
    if (!parseAccessToken(token).ok) return;
    await this.transactions.run(async (m) => {
      const grantId = await this.repo.deleteToken(m, hashAccessToken(token), client.appId);
      if (grantId !== null) await this.grants.revokeWithin(m, grantId, this.clock.now());
    });
  }
}

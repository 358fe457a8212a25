import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from '../../../../shared/domain/transaction';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { baseUrl } from '../../../../shared/http/partner-paths';
import { generateAccessToken, hashAccessToken } from '../../access';
import { AppRepository } from '../../apps';
import { AppNotApprovedError, NotFoundError, toInputError } from '../../../../shared/domain/errors';
import { DemoCompanyOtherAppError } from '../domain/grant-rules';
import { GrantRepository } from '../domain/grant.repository';
import { accountIdCandidates, accountIdViolations, grantExpiry, scopeViolations } from '../domain/grant-rules';
import { expiringAtOnce, type GrantEvent, grantExpiringEvent, grantRevokedEvent } from '../domain/grant-events';
import { OrganizationRepository } from '../../organizations';
import type { Scope } from '../../../../shared/domain/scopes';
import { SecondFactorService } from '../../organizations';

/** A grant request whose shape the validation pipe has checked (types and bounds, not membership). */
export interface CreateGrantInput {
  app_id: string;
  owner_user_id: string;
  /** Anything: every fault of the code is 403 aal2_required, never 400 (CONTRACT §10). */
  totp_code: unknown;
  account_ids: unknown[];
  scopes: unknown[];
  duration_seconds: number;
}

/** Console: customer grants and the production tokens issued under them (CONTRACT §8, §10). */
@Injectable()
export class GrantService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly apps: AppRepository,
    private readonly grants: GrantRepository,
    private readonly secondFactor: SecondFactorService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * CONTRACT §10's order: the organization (404; the path guard answered it before the body was
   * validated, it is checked again here under a lock), the body (400: shape in the pipe, then the
   * selected accounts and scopes here), `app_id` (404), an approved revision (409), and last the
   * owner's one-time code (403). The organization row stays locked until commit, which serializes the
   * grants of one organization, so the supersession below and grants_current_idx never race.
   */
  async createGrant(organizationId: string, input: CreateGrantInput): Promise<{ id: string; expires_at: string }> {
    const org = organizationId;
    const appId = input.app_id;
    const ownerUserId = input.owner_user_id;
    const now = this.clock.now();
    return this.transactions.run((m) =>
      this.grantWithin(m, org, { appId, ownerUserId, accountIds: input.account_ids, scopes: input.scopes, durationSeconds: input.duration_seconds }, now, () =>
        this.secondFactor.consume(m, org, ownerUserId, input.totp_code, now),
      ),
    );
  }

  /**
   * The grant itself, inside the caller's transaction: the console (above) and the owner's consent
   * page (CONTRACT §11) both come here, so supersession, expiry, scopes and the permitted account set
   * are one rule. `secondFactor` is the aal2 check, run last: the console consumes a one-time code;
   * the consent page's owner passed aal2 at sign-in and only the ownership is checked again.
   * `organizationId` and the ids must be lower-case.
   */
  async grantWithin(
    m: Transaction,
    org: string,
    input: { appId: string; ownerUserId: string; accountIds: unknown[]; scopes: unknown[]; durationSeconds: number },
    now: Date,
    secondFactor: () => Promise<void>,
  ): Promise<{ id: string; expires_at: string }> {
    const { appId, ownerUserId } = input;
    if (!(await this.organizations.lock(m, org))) throw new NotFoundError('organization');
    const existing = await this.organizations.existingAccountIds(m, org, accountIdCandidates(input.accountIds));
    const violations = [...accountIdViolations(input.accountIds, existing), ...scopeViolations(input.scopes)];
    if (violations.length > 0) throw toInputError(violations);

    const app = await this.apps.find(m, appId);
    if (!app) throw new NotFoundError('app');
    // CONTRACT §15: a demo company grants only its developer's apps, and those before any approval;
    // everywhere else (seed 5.5) production needs an approved app revision
    const demo = await this.grants.demoStanding(m, org, appId);
    if (demo.organizationIsDemo && !demo.developersOwn) throw new DemoCompanyOtherAppError();
    if (!demo.developersOwn && !app.approvedRevisionId) throw new AppNotApprovedError();

    await secondFactor();

    const id = randomUUID();
    const expiresAt = grantExpiry(now, input.durationSeconds);
    // CONTRACT §8: a new grant supersedes the previous one; its tokens then get 403 grant_revoked.
    // CONTRACT §18: the app hears of it in this transaction (grant.revoked, superseded), and of a grant
    // that ends within the notice period at once (grant.expiring)
    const superseded = await this.grants.supersedeCurrent(m, org, appId, now);
    const events: GrantEvent[] = superseded.map((g) => grantRevokedEvent(randomUUID(), g, 'superseded', now, now));
    const expiring = expiringAtOnce(now, expiresAt);
    await this.grants.insert(m, {
      id,
      organizationId: org,
      appId,
      ownerUserId,
      accountIds: [...existing],
      scopes: input.scopes as Scope[],
      grantedAt: now,
      expiresAt,
      expiringNotifiedAt: expiring ? now : null,
    });
    if (expiring) events.push(grantExpiringEvent(randomUUID(), { organizationId: org, id, appId }, expiresAt, now));
    await this.grants.insertEvents(m, events);
    return { id, expires_at: expiresAt.toISOString() };
  }

  /** Idempotent; the next partner call under the grant gets 403 grant_revoked (no cache outlives it). */
  async revokeGrant(grantId: string): Promise<{ id: string; revoked: true }> {
    const id = grantId;
    const found = await this.transactions.run((m) => this.revokeWithin(m, id, this.clock.now()));
    if (!found) throw new NotFoundError('grant');
    return { id, revoked: true };
  }

  /**
   * Revokes the grant (lower-case id) inside the caller's transaction; false when there is no such
   * grant. A grant in force until now is told to its app in the same transaction (CONTRACT §18:
   * grant.revoked, reason revoked); revoking it again, or a grant already superseded or expired, tells
   * nothing more (an expired one is told by the expiry scan).
   */
  async revokeWithin(m: Transaction, grantId: string, now: Date): Promise<boolean> {
    const revoked = await this.grants.revoke(m, grantId, now);
    if (!revoked) return false;
    if (revoked.ended) await this.grants.insertEvents(m, [grantRevokedEvent(randomUUID(), revoked.ended, 'revoked', now, now)]);
    return true;
  }

  /**
   * A new `hat_` token for any existing grant — revoked, superseded or expired ones too: the grant's
   * state is checked on each partner call (CONTRACT §10). The token is bound to the app revision
   * approved now. A grant is only ever given for an approved app and approval cannot be withdrawn, so
   * an app without an approved revision cannot occur here — except on its developer's demo company
   * (CONTRACT §15), where the token is bound to "no approved revision" (and stops, 403
   * app_revision_changed, once one is approved, as any token does at a new approval); elsewhere the
   * answer is 409 app_not_approved rather than a token that could never work.
   */
  async issueToken(grantId: string): Promise<{ token: string; base_url: string }> {
    const id = grantId;
    const token = await this.transactions.run((m) => this.issueTokenWithin(m, id));
    return { token, base_url: baseUrl(this.config.publicOrigin, 'production') };
  }

  /** A new `hat_` token for the grant (lower-case id), inside the caller's transaction; see issueToken. */
  async issueTokenWithin(m: Transaction, grantId: string): Promise<string> {
    const token = generateAccessToken('production');
    const grant = await this.grants.find(m, grantId);
    if (!grant) throw new NotFoundError('grant');
    // locked, so that an approval running now either precedes the issue or follows it
    const app = await this.apps.find(m, grant.appId, { lock: true });
    if (!app) throw new AppNotApprovedError();
    if (!app.approvedRevisionId && !(await this.grants.demoStanding(m, grant.organizationId, grant.appId)).developersOwn) throw new AppNotApprovedError();
    await this.grants.insertToken(m, {
      tokenHash: hashAccessToken(token),
      organizationId: grant.organizationId,
      appId: grant.appId,
      grantId: grant.id,
      appRevisionId: app.approvedRevisionId,
    });
    return token;
  }
}

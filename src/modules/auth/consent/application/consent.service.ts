import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { DomainError } from '../../../../shared/domain/errors';
import type { Transaction } from '../../../../shared/domain/transaction';
import { isUuid } from '../../../../shared/http/validation/constraints';
import { AppReadRepository } from '../../apps';
import { GrantService } from '../../grants';
import { MandateService } from '../../grants';
import { Aal2RequiredError } from '../../../../shared/domain/errors';
import { isScope, SCOPES, type Scope } from '../../../../shared/domain/scopes';
import { type AuthorizationRequest, ConsentRepository, type ConsentSession } from '../domain/consent.repository';
import { isPkceValue } from '../domain/pkce';
import { type AppPublisher, NO_PUBLISHER } from '../../apps';
import { generateOpaque, sha256Hex } from '../domain/secrets';
import { firstSupportedTag } from '../../../../shared/web';
import { ConsentSessionService } from './consent-session.service';
import { OAuthClientService } from './oauth-client.service';

export const DURATION_DAYS = [90, 60, 30] as const;

export type AuthorizeCheck =
  { kind: 'page'; status: 400; messageKey: string } | { kind: 'redirect'; location: string } | { kind: 'ok'; request: AuthorizationRequest; appName: string };

/** What the consent form shows (CONTRACT §18): who is asking, for what, for how long. */
export interface ConsentView {
  appName: string;
  /** CONTRACT §21: the approved revision's publisher, and whether the operator verified it */
  publisher: AppPublisher;
  publisherVerified: boolean;
  /** the host (and port) of the redirect URI the owner returns to */
  redirectHost: string;
  /** the signed-in owner's email */
  email: string;
  organizationName: string;
  /** the organization's CVR number when known (not recorded yet: null) */
  cvr: string | null;
  /** the scope codes; the page shows each in words only */
  scopes: string[];
  accounts: Array<{ id: string; number: string; name: string }>;
  /** each duration with the day the grant would end */
  durations: Array<{ days: number; until: Date }>;
  mandateOffered: boolean;
}

export type NextStep =
  | { kind: 'choose'; appName: string; organizations: Array<{ id: string; name: string }> }
  | { kind: 'consent'; view: ConsentView }
  | { kind: 'redirect'; location: string };

export type Decision =
  | { kind: 'redirect'; location: string }
  | {
      kind: 'invalid';
      view: ConsentView;
      error: 'consent.noAccount' | 'consent.unknownAccount' | 'consent.nothingGranted';
      checked: string[];
      durationDays: number;
      mandate: boolean;
    };

/** The query value when given exactly once; `undefined` when absent; `null` when repeated or not text. */
function single(query: Record<string, unknown>, name: string): string | null | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : null;
}

/** `uri` with the parameters appended to its query (RFC 6749 §4.1.2: the registered query is kept). */
export function withParams(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.append(k, v);
  return url.toString();
}

/**
 * The owner's side of CONTRACT §11, the OAuth protocol: the authorization request's checks, after sign-in
 * (ConsentSessionService) the organization and the consent decision. Grants and mandates are made by the grants module's services, so every rule
 * of §8 holds for them as for the console's.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly repo: ConsentRepository,
    private readonly clients: OAuthClientService,
    private readonly grants: GrantService,
    private readonly mandates: MandateService,
    private readonly appReads: AppReadRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly session: ConsentSessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** CONTRACT §11's error rules of `GET /oauth/authorize`, in its order. */
  async checkAuthorize(query: Record<string, unknown>): Promise<AuthorizeCheck> {
    const clientId = single(query, 'client_id');
    const client = typeof clientId === 'string' ? await this.clients.find(clientId) : null;
    if (!client) return { kind: 'page', status: 400, messageKey: 'consent.unknownClient' };
    const redirectUri = single(query, 'redirect_uri');
    if (typeof redirectUri !== 'string' || !client.redirectUris.includes(redirectUri)) {
      return { kind: 'page', status: 400, messageKey: 'consent.badRedirect' };
    }
    const stateValue = single(query, 'state');
    const state = typeof stateValue === 'string' ? stateValue : null;
    const fail = (error: string, description: string) => ({
      kind: 'redirect' as const,
      location: withParams(redirectUri, { error, error_description: description, state, iss: this.config.publicOrigin }),
    });
    if (stateValue === null) return fail('invalid_request', 'state is repeated');
    const responseType = single(query, 'response_type');
    if (responseType === undefined || responseType === null) return fail('invalid_request', 'response_type is missing');
    if (responseType !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
    const challenge = single(query, 'code_challenge');
    if (!isPkceValue(challenge)) return fail('invalid_request', 'code_challenge is missing or malformed (PKCE is required)');
    if (single(query, 'code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const organizationId = single(query, 'organization_id');
    if (organizationId === null || (organizationId !== undefined && !isUuid(organizationId))) return fail('invalid_request', 'organization_id is malformed');
    const scope = single(query, 'scope');
    const scopes = typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : [];
    if (scopes.length === 0 || !scopes.every(isScope)) return fail('invalid_scope', `scope must name one or more of ${SCOPES.join(' ')}`);
    // CONTRACT §15: before approval, a developer's app may still be connected to its developer's demo company
    if (!client.approvedRevisionId && (await this.transactions.run((m) => this.repo.demoOrganizationOfApp(m, client.appId))) === null) {
      return fail('unauthorized_client', 'the app has no approved revision');
    }
    return {
      kind: 'ok',
      appName: client.appName,
      request: {
        clientId: client.appId,
        redirectUri,
        scopes: SCOPES.filter((s) => scopes.includes(s)),
        state,
        codeChallenge: challenge,
        organizationId: organizationId ? organizationId.toLowerCase() : null,
        uiLocales: firstSupportedTag(single(query, 'ui_locales')),
      },
    };
  }

  async appName(clientId: string): Promise<string> {
    return (await this.clients.find(clientId))?.appName ?? '';
  }

  /** After sign-in: the organization choice, the consent form, or access_denied back to the app. */
  async nextStep(session: ConsentSession): Promise<NextStep> {
    const request = session.request as AuthorizationRequest;
    const userId = session.userId as string;
    const client = await this.clients.find(request.clientId);
    const denied = (description: string) => ({ kind: 'redirect' as const, location: this.errorLocation(request, 'access_denied', description) });
    if (!client) return denied('the app is gone');
    const unapproved = () => ({ kind: 'redirect' as const, location: this.errorLocation(request, 'unauthorized_client', 'the app has no approved revision') });
    return this.transactions.run(async (m) => {
      const { owned: all, usable: owned, approved } = await this.usableOrganizations(m, userId, client.appId, client.approvedRevisionId !== null);
      // why an organization the owner has cannot take this app: a demo company takes only its developer's apps (CONTRACT §15), any other an approved one
      const refused = (o: { demo: boolean }) => (o.demo ? denied("a demo company connects only its own developer's apps") : unapproved());
      let orgId = session.organizationId;
      if (orgId !== null && !owned.some((o) => o.id === orgId)) orgId = null;
      if (orgId === null && request.organizationId !== null) {
        const asked = all.find((o) => o.id === request.organizationId);
        if (!asked) return denied('you do not own the requested organization');
        if (!owned.some((o) => o.id === asked.id)) return refused(asked);
        orgId = request.organizationId;
      }
      if (orgId === null && owned.length === 0)
        return !approved && all.some((o) => !o.demo) ? unapproved() : denied('you own no organization this app can use');
      if (orgId === null && owned.length === 1) orgId = owned[0].id;
      if (orgId === null) return { kind: 'choose' as const, appName: client.appName, organizations: owned.map((o) => ({ id: o.id, name: o.name })) };
      if (orgId !== session.organizationId) await this.session.choose(m, session, request, orgId);
      session.organizationId = orgId;
      const org = owned.find((o) => o.id === orgId) as { name: string };
      return { kind: 'consent' as const, view: await this.consentView(m, request, userId, org.name, orgId) };
    });
  }

  /** The owner's organization choice; false when it is not one of theirs. */
  async chooseOrganization(session: ConsentSession, organizationId: unknown): Promise<boolean> {
    if (!isUuid(organizationId) || session.userId === null) return false;
    const id = organizationId.toLowerCase();
    const clientId = session.request?.clientId;
    const client = clientId ? await this.clients.find(clientId) : null;
    if (!client) return false;
    return this.transactions.run(async (m) => {
      const { usable: owned } = await this.usableOrganizations(m, session.userId as string, client.appId, client.approvedRevisionId !== null);
      if (!owned.some((o) => o.id === id)) return false;
      if (session.request?.organizationId && session.request.organizationId !== id) return false;
      await this.session.choose(m, session, session.request, id);
      return true;
    });
  }

  /**
   * "Allow access": the grant (selected accounts, requested scopes, chosen duration; superseding the
   * previous grant of the organization and app), the mandate when its box is checked, and a code
   * (single-use, 60 s, bound to client, redirect URI and PKCE challenge) — one transaction. "Deny":
   * access_denied. The session ends either way.
   */
  async decide(session: ConsentSession, form: { decision: unknown; accountIds: unknown; durationDays: unknown; mandate: unknown }): Promise<Decision | null> {
    const request = session.request;
    if (!request || session.userId === null || session.organizationId === null) return null;
    const userId = session.userId;
    const org = session.organizationId;
    if (form.decision === 'deny') {
      await this.transactions.run((m) => this.session.answered(m, session));
      return { kind: 'redirect', location: this.errorLocation(request, 'access_denied', 'the owner denied access') };
    }
    const chosen = (Array.isArray(form.accountIds) ? form.accountIds : form.accountIds === undefined ? [] : [form.accountIds]).filter(
      (v): v is string => typeof v === 'string',
    );
    const days = Number(form.durationDays);
    const durationDays = (DURATION_DAYS as readonly number[]).includes(days) ? days : 90;
    const mandate = form.mandate === 'yes' && request.scopes.includes('journal:post');
    const now = this.clock.now();
    const code = generateOpaque();
    const client = await this.clients.find(request.clientId);
    if (!client) return { kind: 'redirect', location: this.errorLocation(request, 'access_denied', 'the app is gone') };
    return this.transactions.run(async (m) => {
      const accounts = await this.repo.activeAccounts(m, org);
      const active = new Set(accounts.map((a) => a.id));
      const ids = [...new Set(chosen.map((c) => c.toLowerCase()))];
      // CONTRACT §18: only the grant button grants. Enter in the form presses its first submit button,
      // a hidden "review" one: the form comes back as it was, with nothing granted
      const granting = form.decision === 'allow';
      if (!granting || ids.length === 0 || !ids.every((id) => active.has(id))) {
        const orgName = (await this.repo.ownedOrganizations(m, userId)).find((o) => o.id === org)?.name ?? '';
        return {
          kind: 'invalid' as const,
          view: await this.consentView(m, request, userId, orgName, org),
          error: !granting ? ('consent.nothingGranted' as const) : ids.length === 0 ? ('consent.noAccount' as const) : ('consent.unknownAccount' as const),
          checked: ids.filter((id) => active.has(id)),
          durationDays,
          mandate,
        };
      }
      const stillOwner = async () => {
        if (!(await this.repo.isOwner(m, org, userId))) throw new Aal2RequiredError();
      };
      try {
        const grant = await this.grants.grantWithin(
          m,
          org,
          { appId: request.clientId, ownerUserId: userId, accountIds: ids, scopes: request.scopes, durationSeconds: durationDays * 86_400 },
          now,
          stillOwner,
        );
        if (mandate) await this.mandates.mandateWithin(m, org, request.clientId, userId, now, stillOwner);
        await this.repo.insertCode(m, {
          codeHash: sha256Hex(code),
          organizationId: org,
          grantId: grant.id,
          appId: request.clientId,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          scopes: request.scopes,
          issuedAt: now,
        });
        await this.session.answered(m, session);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'app_not_approved') {
          return { kind: 'redirect' as const, location: this.errorLocation(request, 'unauthorized_client', 'the app has no approved revision') };
        }
        if (err instanceof Aal2RequiredError) {
          return { kind: 'redirect' as const, location: this.errorLocation(request, 'access_denied', 'you no longer own the organization') };
        }
        if (err instanceof DomainError && err.code === 'resource_conflict') {
          // the grants module's rule of CONTRACT §15: a demo company grants only its developer's apps
          return { kind: 'redirect' as const, location: this.errorLocation(request, 'access_denied', "a demo company connects only its own developer's apps") };
        }
        throw err;
      }
      // RFC 9207: the issuer goes with the code (and with every error below)
      return { kind: 'redirect' as const, location: withParams(request.redirectUri, { code, state: request.state, iss: this.config.publicOrigin }) };
    });
  }

  /**
   * The user's production organizations (`owned`) and those the app can be connected to (`usable`):
   * CONTRACT §15 — a demo company only for its own developer's apps (approved or not), any other
   * organization only for an approved app. The grants module checks the same rule when the grant is made.
   */
  private async usableOrganizations(m: Transaction, userId: string, appId: string, approved: boolean) {
    const owned = (await this.repo.ownedOrganizations(m, userId)).filter((o) => o.environment === 'production');
    const demo = owned.some((o) => o.demo) ? await this.repo.demoOrganizationOfApp(m, appId) : null;
    return { owned, usable: owned.filter((o) => (o.demo ? o.id === demo : approved)), approved };
  }

  errorLocation(request: AuthorizationRequest, error: string, description: string): string {
    return withParams(request.redirectUri, { error, error_description: description, state: request.state, iss: this.config.publicOrigin });
  }

  private async consentView(m: Transaction, request: AuthorizationRequest, userId: string, organizationName: string, org: string): Promise<ConsentView> {
    const accounts = await this.repo.activeAccounts(m, org);
    const app = await this.appReads.app(m, request.clientId);
    const now = this.clock.now();
    let redirectHost = '';
    try {
      const url = new URL(request.redirectUri);
      redirectHost = url.host !== '' ? url.host : url.protocol;
    } catch {
      redirectHost = request.redirectUri;
    }
    return {
      appName: app?.name ?? '',
      publisher: app?.publisher ?? NO_PUBLISHER,
      publisherVerified: app?.publisherVerified ?? false,
      redirectHost,
      email: (await this.repo.userEmail(m, userId)) ?? '',
      organizationName,
      cvr: null,
      scopes: request.scopes,
      // CONTRACT §7: in the database's natural order (OrganizationsSql.accountOrder), as every list of accounts
      accounts,
      durations: DURATION_DAYS.map((days) => ({ days, until: new Date(now.getTime() + days * 86_400_000) })),
      mandateOffered: request.scopes.includes('journal:post'),
    };
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { DomainError } from '../../../../shared/domain/errors';
import type { Transaction } from '../../../../shared/domain/transaction';
import { isUuid } from '../../../../shared/http/validation/constraints';
import { AppReadRepository } from '../../apps';
import { GrantReadRepository, GrantService } from '../../grants';
import { MandateService } from '../../grants';
import { SecondFactorService } from '../../organizations';
import { Aal2RequiredError } from '../../../../shared/domain/errors';
import { OrganizationReadRepository, verifyPassword } from '../../organizations';
import { isScope, SCOPES, type Scope } from '../../../../shared/domain/scopes';
import { type AuthorizationRequest, type ConnectionRow, ConsentRepository, type ConsentSession } from '../domain/consent.repository';
import { isPkceValue } from '../domain/pkce';
import { type AppPublisher, NO_PUBLISHER } from '../../apps';
import { JournalActivityRepository, type ActivityEntry, type ActivityLine } from '../../../journal';
import { ReceiptsService } from '../../../receipts';
import { AttachmentsService } from '../../../attachments';
import { generateOpaque, sha256Hex } from '../domain/secrets';
import { type Flash, firstSupportedTag, isLang, type Lang, SignInLockouts, signInKey, type WebSession, WebSessions } from '../../../../shared/web';
import { OAuthClientService } from './oauth-client.service';

/** How long a consent-page session lasts from its start. */
export const SESSION_LIFETIME_MS = 30 * 60_000;
export const DURATION_DAYS = [90, 60, 30] as const;
/** CONTRACT §21 (changing §18's 50): the Activity of an app on Connected apps, the latest 10 a page, with Older. */
export const ACTIVITY_PAGE = 10;
/** The CSV of an app's activity holds at most this many lines (a bound on one download's work). */
export const CSV_MAX_LINES = 100_000;

/** What a consent session keeps besides who signed in (the web session's `data`). */
interface ConsentSessionData {
  request: AuthorizationRequest | null;
  organizationId: string | null;
}

function consentSession(s: WebSession<ConsentSessionData>): ConsentSession {
  return {
    idHash: s.idHash,
    csrfSecret: s.csrfSecret,
    purpose: s.purpose as ConsentSession['purpose'],
    request: s.data.request ?? null,
    userId: s.subjectId,
    organizationId: s.data.organizationId ?? null,
    expiresAt: s.expiresAt,
  };
}

function webSession(s: ConsentSession): WebSession<ConsentSessionData> {
  return {
    idHash: s.idHash,
    csrfSecret: s.csrfSecret,
    purpose: s.purpose,
    subjectId: s.userId,
    data: { request: s.request, organizationId: s.organizationId },
    expiresAt: s.expiresAt,
  };
}

export type AuthorizeCheck =
  | { kind: 'page'; status: 400; messageKey: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; request: AuthorizationRequest; appName: string };

export type SignInResult =
  | { kind: 'ok'; cookie: string; session: ConsentSession }
  | { kind: 'failed' }
  | { kind: 'locked'; retryAfterSeconds: number };

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

/** One app's grant on Connected apps, with its activity page. */
export interface ConnectionView {
  grantId: string;
  appId: string;
  appName: string;
  scopes: string[];
  accounts: Array<{ number: string; name: string }>;
  grantedAt: Date;
  expiresAt: Date;
  mandate: boolean;
  lastCallAt: Date | null;
  activity: { entries: ActivityEntry[]; page: number; hasMore: boolean };
}

export type NextStep =
  | { kind: 'choose'; appName: string; organizations: Array<{ id: string; name: string }> }
  | { kind: 'consent'; view: ConsentView }
  | { kind: 'redirect'; location: string };

export type Decision =
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid'; view: ConsentView; error: 'consent.noAccount' | 'consent.unknownAccount' | 'consent.nothingGranted'; checked: string[]; durationDays: number; mandate: boolean };

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
 * The owner's side of CONTRACT §11: the authorization request's checks, sign-in (password and a
 * current, unused TOTP code through the shared second-factor service = aal2), the organization and
 * the consent decision. Grants and mandates are made by the grants module's services, so every rule
 * of §8 holds for them as for the console's.
 */
@Injectable()
export class ConsentService {
  private readonly logger = new Logger('consent');

  constructor(
    private readonly repo: ConsentRepository,
    private readonly clients: OAuthClientService,
    private readonly grants: GrantService,
    private readonly mandates: MandateService,
    private readonly secondFactor: SecondFactorService,
    private readonly organizationReads: OrganizationReadRepository,
    private readonly grantReads: GrantReadRepository,
    private readonly appReads: AppReadRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly sessions: WebSessions,
    private readonly lockouts: SignInLockouts,
    private readonly journalActivity: JournalActivityRepository,
    private readonly receipts: ReceiptsService,
    private readonly attachments: AttachmentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Ends the user's signed-in consent sessions inside the caller's transaction (a password change, CONTRACT §10). */
  endSessionsOf(tx: Transaction, userId: string): Promise<void> {
    return this.sessions.endAllOf(tx, userId, ['authorize', 'connections']);
  }

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

  /** A new session; the returned cookie value is the only place its id exists in clear. */
  async startSession(purpose: ConsentSession['purpose'], request: AuthorizationRequest | null): Promise<{ cookie: string; session: ConsentSession }> {
    const { cookie, session } = await this.sessions.start<ConsentSessionData>(purpose, { request, organizationId: null }, SESSION_LIFETIME_MS);
    return { cookie, session: consentSession(session) };
  }

  async loadSession(cookie: unknown): Promise<ConsentSession | null> {
    const session = await this.sessions.load<ConsentSessionData>(cookie);
    return session && (session.purpose === 'authorize' || session.purpose === 'connections') ? consentSession(session) : null;
  }

  async appName(clientId: string): Promise<string> {
    return (await this.clients.find(clientId))?.appName ?? '';
  }

  /**
   * Password, then the TOTP code through the shared second-factor service (used up only when sign-in
   * succeeds). A failure says nothing of which factor failed. CONTRACT §11 (v4): the attempt is counted
   * per (email, client address) and recorded as a failure before the password is checked (the page
   * kernel's SignInLockouts, serialized by the database), and taken back only when sign-in succeeds; 5
   * within 15 minutes lock the email from that address for 15 minutes, right code or not. Sign-ins from
   * other addresses are slowed when failures for the email pile up, never refused.
   */
  async signIn(session: ConsentSession, emailRaw: unknown, passwordRaw: unknown, codeRaw: unknown, clientAddress: string): Promise<SignInResult> {
    const email = typeof emailRaw === 'string' ? emailRaw.slice(0, 254) : '';
    const password = typeof passwordRaw === 'string' ? passwordRaw.slice(0, 256) : '';
    // CONTRACT §18: spaces in a pasted one-time code are ignored
    if (typeof codeRaw === 'string') codeRaw = codeRaw.replace(/\s+/g, '');
    const emailKey = signInKey('owner', email);
    return this.lockouts.attempt(emailKey, clientAddress, () => this.checkFactors(session, email, password, codeRaw), () =>
      this.logger.warn({ email_key: emailKey.slice(0, 12) }, 'consent sign-in locked for 15 minutes after 5 failures from one address'),
    );
  }

  private async checkFactors(session: ConsentSession, email: string, password: string, codeRaw: unknown): Promise<SignInResult> {
    const now = this.clock.now();
    const candidates = email.trim() === '' ? [] : await this.transactions.run((m) => this.repo.findUsersByEmail(m, email.trim()));
    // an operator's owner and a developer's demo identity may share an email (CONTRACT §15): the password tells which signs in
    let user: { userId: string } | null = null;
    for (const c of candidates) {
      if (await verifyPassword(c.passwordHash, password)) {
        user = c;
        break;
      }
    }
    if (candidates.length === 0) await verifyPassword(null, password);
    if (!user) return { kind: 'failed' };
    try {
      const signedIn = await this.transactions.run(async (m) => {
        const owned = await this.repo.ownedOrganizations(m, user.userId);
        const hinted = session.request?.organizationId ?? null;
        const org = owned.find((o) => o.id === hinted) ?? owned.find((o) => o.environment === 'production') ?? owned[0];
        if (!org) throw new Aal2RequiredError();
        await this.secondFactor.consume(m, org.id, user.userId, codeRaw, now);
        // a new id at the change of privilege: a session id set before sign-in is worth nothing after it
        return this.sessions.signIn(m, webSession(session), user.userId, { request: session.request, organizationId: null });
      });
      return { kind: 'ok', cookie: signedIn.cookie, session: consentSession(signedIn.session) };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'rate_limited') {
        // the per-owner code lockout of CONTRACT §8 (built beside this flow) answers for itself
        return { kind: 'locked', retryAfterSeconds: Number((err as DomainError & { retryAfterSeconds?: number }).retryAfterSeconds ?? 900) };
      }
      if (err instanceof Aal2RequiredError) return { kind: 'failed' };
      throw err;
    }
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
      if (orgId === null && owned.length === 0) return !approved && all.some((o) => !o.demo) ? unapproved() : denied('you own no organization this app can use');
      if (orgId === null && owned.length === 1) orgId = owned[0].id;
      if (orgId === null) return { kind: 'choose' as const, appName: client.appName, organizations: owned.map((o) => ({ id: o.id, name: o.name })) };
      if (orgId !== session.organizationId) await this.sessions.setData(m, session.idHash, { request, organizationId: orgId });
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
      await this.sessions.setData(m, session.idHash, { request: session.request, organizationId: id });
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
      await this.transactions.run((m) => this.answered(m, session));
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
        await this.answered(m, session);
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

  /**
   * Connected apps (CONTRACT §18): per organization, each app with a grant in force — scopes,
   * accounts, granted, expires, mandate, last activity and a page of its activity (`pages`: the page
   * asked for per grant id, 1 when not asked).
   */
  async connections(session: ConsentSession, pages: ReadonlyMap<string, number> = new Map()) {
    if (session.userId === null) return [];
    return this.transactions.run(async (m) => {
      const rows = await this.connectionRows(m, session.userId as string, this.clock.now());
      const byOrg = new Map<string, { id: string; name: string; apps: ConnectionView[] }>();
      const last = new Map<string, Map<string, Date>>();
      for (const r of rows) {
        if (!last.has(r.organizationId)) {
          const appIds = [...new Set(rows.filter((x) => x.organizationId === r.organizationId).map((x) => x.appId))];
          last.set(r.organizationId, await this.receipts.lastOperations(m, r.organizationId, appIds));
        }
        const page = pages.get(r.grantId) ?? 1;
        const entries = await this.journalActivity.entries(m, r.organizationId, r.appId, { limit: ACTIVITY_PAGE + 1, offset: (page - 1) * ACTIVITY_PAGE });
        const entry = byOrg.get(r.organizationId) ?? { id: r.organizationId, name: r.organizationName, apps: [] };
        entry.apps.push({
          grantId: r.grantId,
          appId: r.appId,
          appName: r.appName,
          scopes: r.scopes,
          accounts: r.accounts,
          grantedAt: r.grantedAt,
          expiresAt: r.expiresAt,
          mandate: r.mandate,
          lastCallAt: last.get(r.organizationId)?.get(r.appId) ?? null,
          activity: { entries: entries.slice(0, ACTIVITY_PAGE), page, hasMore: entries.length > ACTIVITY_PAGE },
        });
        byOrg.set(r.organizationId, entry);
      }
      return [...byOrg.values()];
    });
  }

  /** The grant in force of an organization the signed-in owner owns, with its app's and organization's names; null for any other id. */
  async connection(session: ConsentSession, grantId: unknown): Promise<{ grantId: string; appId: string; appName: string; organizationId: string; organizationName: string } | null> {
    if (session.userId === null || !isUuid(grantId)) return null;
    const id = grantId.toLowerCase();
    const rows = await this.transactions.run((m) => this.connectionRows(m, session.userId as string, this.clock.now()));
    const r = rows.find((x) => x.grantId === id);
    return r ? { grantId: r.grantId, appId: r.appId, appName: r.appName, organizationId: r.organizationId, organizationName: r.organizationName } : null;
  }

  /**
   * An attachment of an entry the grant's app posted to the grant's organization (CONTRACT §18: each
   * attachment downloadable by the owner), or null when the grant is not the signed-in owner's or the
   * attachment is not of such an entry.
   */
  async attachment(session: ConsentSession, grantId: unknown, entryId: unknown, attachmentId: unknown) {
    if (!isUuid(entryId) || !isUuid(attachmentId)) return null;
    const c = await this.connection(session, grantId);
    if (!c) return null;
    return this.attachments.storedFor({ organizationId: c.organizationId, appId: c.appId, environment: 'production' }, entryId.toLowerCase(), attachmentId.toLowerCase());
  }

  /** The lines of every entry the grant's app posted to its organization (the CSV), or null when the grant is not the owner's. */
  async activityLines(session: ConsentSession, grantId: unknown): Promise<{ appName: string; organizationName: string; lines: ActivityLine[] } | null> {
    const c = await this.connection(session, grantId);
    if (!c) return null;
    const lines = await this.transactions.run((m) => this.journalActivity.lines(m, c.organizationId, c.appId, CSV_MAX_LINES));
    return { appName: c.appName, organizationName: c.organizationName, lines };
  }

  /**
   * Revokes a grant of an organization the signed-in owner owns, and leaves the status for the page the
   * 303 leads to (CONTRACT §18); false for any other id (a grant already revoked, a replayed form: nothing happens twice).
   */
  async revokeConnection(session: ConsentSession, grantId: unknown): Promise<{ appName: string; organizationName: string } | null> {
    const c = await this.connection(session, grantId);
    if (!c) return null;
    await this.grants.revokeGrant(c.grantId);
    return { appName: c.appName, organizationName: c.organizationName };
  }

  /** The status message (or a secret) for the next page of this signed-in session (CONTRACT §18 post-redirect-get). */
  /**
   * CONTRACT §21 "one sign-in": the request is answered, the owner stays signed in (Connected apps, the
   * next /oauth/authorize) until the session ends; a replayed decision finds no request.
   */
  private answered(tx: Transaction, session: ConsentSession): Promise<void> {
    return this.sessions.setData(tx, session.idHash, { request: null, organizationId: null });
  }

  /** The request can go no further (a 303 back to the app): the owner stays signed in without it. */
  dropRequest(session: ConsentSession): Promise<void> {
    return this.transactions.run((m) => this.answered(m, session));
  }

  /**
   * CONTRACT §21 "one sign-in": an owner signed in (Connected apps, an earlier consent) who opens
   * /oauth/authorize goes on signed in with the new request, its end unchanged. A consent session keeps
   * its id and CSRF secret: the new request replaces the one it held, and another tab's form of that one
   * is told so by its request tag (domain/request-tag.ts), never applied to this request. A Connected apps
   * session becomes a consent session under a new id and CSRF secret (its forms are refused, 403).
   */
  async continueSignedIn(session: ConsentSession, request: AuthorizationRequest): Promise<{ cookie: string | null; session: ConsentSession }> {
    if (session.purpose === 'authorize') {
      await this.transactions.run((m) => this.sessions.setData(m, session.idHash, { request, organizationId: null }));
      return { cookie: null, session: { ...session, request, organizationId: null } };
    }
    const next = await this.transactions.run((m) =>
      this.sessions.signIn(m, { ...webSession(session), purpose: 'authorize' }, session.userId as string, { request, organizationId: null }),
    );
    return { cookie: next.cookie, session: consentSession(next.session) };
  }

  /** A refused form's message for the GET its 303 leads to (CONTRACT §21); a new cookie to set, or null. */
  leaveFlash(session: ConsentSession, flash: Flash): Promise<string | null> {
    return this.sessions.leaveFlash(webSession(session), flash);
  }

  setFlash(session: ConsentSession, flash: Flash): Promise<void> {
    return this.transactions.run((m) => this.sessions.setFlash(m, session.idHash, flash));
  }

  takeFlash(session: ConsentSession): Promise<Flash | null> {
    return this.sessions.takeFlash(session.idHash);
  }

  /** The language switch used on a consent page: the authorization request keeps it (CONTRACT §18), so later pages of the flow follow it. */
  async keepLanguage(session: ConsentSession, lang: unknown): Promise<void> {
    if (!isLang(lang) || !session.request || session.userId === null || session.request.uiLocales === lang) return;
    const request = { ...session.request, uiLocales: lang as Lang };
    await this.transactions.run((m) => this.sessions.setData(m, session.idHash, { request, organizationId: session.organizationId }));
    session.request = request;
  }

  /** Sign-out of Connected apps: the session's row goes. */
  async signOut(session: ConsentSession): Promise<void> {
    await this.transactions.run((m) => this.sessions.end(m, session.idHash));
  }

  /**
   * The grants in force of the organizations the user owns, with organization, app and accounts, ordered
   * by organization name and id, app name, grant id. The names are ordered by the database (its text
   * collation), so they are never compared here: organizations come in the owners' order (name, id) and
   * apps are ranked by their position in the apps' order (name, id), equal names sharing a rank; only the
   * grant ids (lower-case uuids, whose text order is the uuid order) are compared here.
   */
  private async connectionRows(tx: Transaction, userId: string, now: Date): Promise<ConnectionRow[]> {
    const organizations = await this.organizationReads.ownedBy(tx, userId);
    if (organizations.length === 0) return [];
    const grants = await this.grantReads.grantsInForce(
      tx,
      organizations.map((o) => o.id),
      now,
    );
    if (grants.length === 0) return [];
    const apps = await this.appReads.names(tx, [...new Set(grants.map((g) => g.appId))]);
    const appName = new Map<string, string>();
    const appRank = new Map<string, number>();
    let rank = -1;
    let previous: string | undefined;
    for (const a of apps) {
      if (a.name !== previous) rank += 1;
      previous = a.name;
      appName.set(a.id, a.name);
      appRank.set(a.id, rank);
    }
    const pairs = new Map<string, { organizationId: string; accountId: string }>();
    for (const g of grants) for (const accountId of g.accountIds) pairs.set(`${g.organizationId}/${accountId}`, { organizationId: g.organizationId, accountId });
    const accounts = await this.organizationReads.accounts(
      tx,
      [...pairs.values()].map((p) => p.organizationId),
      [...pairs.values()].map((p) => p.accountId),
    );
    const rows: ConnectionRow[] = [];
    for (const o of organizations) {
      const ofOrganization = grants
        .filter((g) => g.organizationId === o.id && appRank.has(g.appId))
        .sort((x, y) => (appRank.get(x.appId) as number) - (appRank.get(y.appId) as number) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      for (const g of ofOrganization) {
        const selected = new Set(g.accountIds);
        rows.push({
          organizationId: g.organizationId,
          organizationName: o.name,
          grantId: g.id,
          appId: g.appId,
          appName: appName.get(g.appId) as string,
          scopes: g.scopes,
          grantedAt: g.grantedAt,
          expiresAt: g.expiresAt,
          mandate: g.mandate,
          accounts: accounts
            .filter((a) => a.organizationId === g.organizationId && selected.has(a.id))
            .map((a) => ({ number: a.number, name: a.name })),
        });
      }
    }
    return rows;
  }

  /** The grant's organization if the user owns it, else null. */
  private async grantOwnedBy(tx: Transaction, grantId: string, userId: string): Promise<string | null> {
    for (const organizationId of await this.grantReads.organizationsOfGrant(tx, grantId)) {
      if (await this.organizationReads.isOwner(tx, organizationId, userId)) return organizationId;
    }
    return null;
  }
}

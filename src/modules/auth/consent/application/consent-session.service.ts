import { Injectable, Logger } from '@nestjs/common';
import { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import { Aal2RequiredError, DomainError } from '../../../../shared/domain/errors';
import type { Transaction } from '../../../../shared/domain/transaction';
import { type Flash, isLang, type Lang, SignInLockouts, signInKey, type WebSession, WebSessions } from '../../../../shared/web';
import { SecondFactorService, verifyPassword } from '../../organizations';
import { type AuthorizationRequest, ConsentRepository, type ConsentSession } from '../domain/consent.repository';

/** How long a consent-page session lasts from its start. */
export const SESSION_LIFETIME_MS = 30 * 60_000;
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

export type SignInResult = { kind: 'ok'; cookie: string; session: ConsentSession } | { kind: 'failed' } | { kind: 'locked'; retryAfterSeconds: number };

/**
 * The owner's session on the consent pages and Connected apps (CONTRACT §11, §21 "one sign-in"): its
 * start and look-up (the page kernel's WebSessions), sign-in (password and a current, unused TOTP code
 * through the shared second-factor service = aal2, under the page kernel's SignInLockouts), the
 * authorization request it carries, status messages, the language, sign-out. ConsentService (the OAuth
 * decision) and the owner pages (src/modules/owner-pages) both work under it.
 */
@Injectable()
export class ConsentSessionService {
  private readonly logger = new Logger('consent');

  constructor(
    private readonly repo: ConsentRepository,
    private readonly secondFactor: SecondFactorService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly sessions: WebSessions,
    private readonly lockouts: SignInLockouts,
  ) {}

  /** Ends the user's signed-in consent sessions inside the caller's transaction (a password change, CONTRACT §10). */
  endSessionsOf(tx: Transaction, userId: string): Promise<void> {
    return this.sessions.endAllOf(tx, userId, ['authorize', 'connections']);
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
    return this.lockouts.attempt(
      emailKey,
      clientAddress,
      () => this.checkFactors(session, email, password, codeRaw),
      () => this.logger.warn({ email_key: emailKey.slice(0, 12) }, 'consent sign-in locked for 15 minutes after 5 failures from one address'),
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

  /** The request and the organization chosen for it, kept in the session (inside the caller's transaction). */
  choose(tx: Transaction, session: ConsentSession, request: AuthorizationRequest | null, organizationId: string): Promise<void> {
    return this.sessions.setData(tx, session.idHash, { request, organizationId });
  }

  /**
   * CONTRACT §21 "one sign-in": the request is answered, the owner stays signed in (Connected apps, the
   * next /oauth/authorize) until the session ends; a replayed decision finds no request.
   */
  answered(tx: Transaction, session: ConsentSession): Promise<void> {
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
}

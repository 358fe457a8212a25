import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type Flash, SignInLockouts, signInKey, type WebSession, WebSessions } from '../../../shared/web';
import { generateTotpSecret, hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword, verifyTotp } from '../../auth/organizations';
import { DeveloperRepository } from '../domain/developer.repository';

/** CONTRACT §15: a developer session lasts at most 12 hours, and ends after 30 minutes without a request. */
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;
export const SESSION_IDLE_MS = 30 * 60_000;
/** The last-seen time is written at most once a minute, not on every page. */
const SEEN_WRITE_MS = 60_000;
const PURPOSE = 'developer';
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What a developer session keeps: when it was last used, and the sign-up in progress (its TOTP secret sealed, CONTRACT §8). */
export interface DeveloperSessionData {
  /** ms since the epoch of the last request (the idle limit) */
  seen: number;
  /** sign-up between **Create account** and **Confirm**: the email, the password's hash and the secret being enrolled */
  enrolment?: { email: string; passwordHash: string; sealedTotpSecret: string };
}

export type DeveloperSession = WebSession<DeveloperSessionData>;
export type FieldErrors = Partial<Record<'email' | 'password' | 'code', string>>;

export type SignInResult = { kind: 'ok'; cookie: string; session: DeveloperSession } | { kind: 'failed' } | { kind: 'locked'; retryAfterSeconds: number };

export type ConfirmResult =
  | { kind: 'ok'; cookie: string; session: DeveloperSession }
  | { kind: 'invalid'; error: string; enrolment?: { secret: string; uri: string } }
  /** the email had an account already: no second one; the developer signs in with it */
  | { kind: 'existing' };

/**
 * Developer accounts (CONTRACT §15): sign-up with TOTP enrolment, sign-in with password and a current,
 * unused code (§8), sessions of the page kernel (src/shared/web) with a 12 h absolute and 30 min idle
 * limit, and the kernel's per-email sign-in lockout under the realm `developer`.
 */
@Injectable()
export class DeveloperAccountService {
  private readonly logger = new Logger('developers');

  constructor(
    private readonly repo: DeveloperRepository,
    private readonly sessions: WebSessions,
    private readonly lockouts: SignInLockouts,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get signupOpen(): boolean {
    return this.config.developerSignup === 'open';
  }

  async startSession(): Promise<{ cookie: string; session: DeveloperSession }> {
    return this.sessions.start<DeveloperSessionData>(PURPOSE, { seen: this.clock.now().getTime() }, SESSION_ABSOLUTE_MS);
  }

  /** The session of the cookie; null when there is none, it expired, or it was idle for 30 minutes (then it ends). */
  async loadSession(cookie: unknown): Promise<DeveloperSession | null> {
    const session = await this.sessions.load<DeveloperSessionData>(cookie);
    if (!session || session.purpose !== PURPOSE) return null;
    const now = this.clock.now().getTime();
    const seen = typeof session.data.seen === 'number' ? session.data.seen : 0;
    if (now - seen >= SESSION_IDLE_MS) {
      await this.transactions.run((m) => this.sessions.end(m, session.idHash));
      return null;
    }
    if (now - seen >= SEEN_WRITE_MS) {
      session.data = { ...session.data, seen: now };
      await this.transactions.run((m) => this.sessions.setData(m, session.idHash, session.data));
    }
    return session;
  }

  /**
   * **Create account**: checks the fields and answers a new TOTP secret to enrol, for a new email and
   * for one that has an account alike (CONTRACT §15: the answer does not tell them apart). Nothing is
   * stored but the session's sign-up in progress.
   */
  async beginSignup(session: DeveloperSession, emailRaw: unknown, passwordRaw: unknown): Promise<{ errors: FieldErrors } | { secret: string; uri: string; email: string; cookie: string; session: DeveloperSession }> {
    const email = typeof emailRaw === 'string' ? emailRaw.trim() : '';
    const password = typeof passwordRaw === 'string' ? passwordRaw : '';
    const errors: FieldErrors = {};
    if (email.length === 0 || email.length > 254 || !EMAIL_SHAPE.test(email)) errors.email = 'developers.emailInvalid';
    const length = [...password].length;
    if (length < PASSWORD_MIN || length > PASSWORD_MAX) errors.password = 'developers.passwordLength';
    if (errors.email || errors.password) return { errors };
    const secret = generateTotpSecret();
    const data: DeveloperSessionData = { seen: this.clock.now().getTime(), enrolment: { email, passwordHash: await hashPassword(password), sealedTotpSecret: this.box.seal(secret, SECRET_CONTEXT.developerTotp) } };
    // the form is posted: the sign-up in progress is kept in a session row (CONTRACT §12), under a new id
    const kept = await this.transactions.run((m) => this.sessions.persist(m, session, data));
    return { secret, uri: otpauthUri(email, secret), email, cookie: kept.cookie, session: kept.session };
  }

  /** **Confirm**: the code of the enrolled secret creates the account and signs the developer in (a new session id). */
  async confirmSignup(session: DeveloperSession, codeRaw: unknown): Promise<ConfirmResult> {
    const enrolment = session.data.enrolment;
    if (!enrolment) return { kind: 'invalid', error: 'developers.startAgain' };
    const totpSecret = this.box.openAny(enrolment.sealedTotpSecret, SECRET_CONTEXT.developerTotp);
    const check = verifyTotp(totpSecret, codeRaw, this.clock.now().getTime(), null);
    if (!check.ok) {
      return {
        kind: 'invalid',
        error: 'developers.codeWrong',
        enrolment: { secret: totpSecret, uri: otpauthUri(enrolment.email, totpSecret) },
      };
    }
    const id = randomUUID();
    const result = await this.transactions.run(async (m) => {
      const created = await this.repo.create(m, { id, email: enrolment.email, passwordHash: enrolment.passwordHash, totpSecret, lastAcceptedStep: check.step });
      if (!created) {
        await this.sessions.setData(m, session.idHash, { seen: this.clock.now().getTime() });
        return null;
      }
      return this.sessions.signIn<DeveloperSessionData>(m, session, id, { seen: this.clock.now().getTime() });
    });
    if (!result) return { kind: 'existing' };
    this.logger.log({ developerId: id }, 'developer account created');
    return { kind: 'ok', cookie: result.cookie, session: result.session };
  }

  /**
   * **Sign in**: the kernel's lockout of the email (realm `developer`), the password, then the code in
   * the developer's locked row (used once). A failure never says which factor failed.
   */
  async signIn(session: DeveloperSession, emailRaw: unknown, passwordRaw: unknown, codeRaw: unknown, clientAddress: string): Promise<SignInResult> {
    const email = typeof emailRaw === 'string' ? emailRaw.trim().slice(0, 254) : '';
    const password = typeof passwordRaw === 'string' ? passwordRaw.slice(0, 256) : '';
    const key = signInKey('developer', email);
    // counted and recorded before the password is checked, per (email, client address) (CONTRACT §11, §15)
    return this.lockouts.attempt(key, clientAddress, () => this.checkFactors(session, email, password, codeRaw), () =>
      this.logger.warn({ email_key: key.slice(0, 12) }, 'developer sign-in locked for 15 minutes after 5 failures from one address'),
    );
  }

  private async checkFactors(session: DeveloperSession, email: string, password: string, codeRaw: unknown): Promise<SignInResult> {
    const now = this.clock.now();
    const developer = email === '' ? null : await this.transactions.run((m) => this.repo.findByEmail(m, email));
    const passwordOk = await verifyPassword(developer?.passwordHash ?? null, password);
    if (developer && passwordOk) {
      const signedIn = await this.transactions.run(async (m) => {
        const locked = await this.repo.findForUpdate(m, developer.id);
        if (!locked) return null;
        const check = verifyTotp(locked.totpSecret, codeRaw, now.getTime(), locked.lastAcceptedStep);
        if (!check.ok || !(await this.repo.consumeStep(m, developer.id, check.step))) return null;
        return this.sessions.signIn<DeveloperSessionData>(m, session, developer.id, { seen: now.getTime() });
      });
      if (signedIn) return { kind: 'ok', cookie: signedIn.cookie, session: signedIn.session };
    }
    return { kind: 'failed' };
  }

  /** **Sign out** ends the session. */
  /** The sign-up in progress as the enrolment page shows it (CONTRACT §18: the page the 303 of Create account leads to), or null. */
  enrolment(session: DeveloperSession): { secret: string; uri: string } | null {
    const enrolment = session.data.enrolment;
    if (!enrolment) return null;
    const secret = this.box.openAny(enrolment.sealedTotpSecret, SECRET_CONTEXT.developerTotp);
    return { secret, uri: otpauthUri(enrolment.email, secret) };
  }

  /** What an action leaves for the page its 303 leads to, in this signed-in session (CONTRACT §18). */
  setFlash(session: DeveloperSession, flash: Flash & { section?: string }): Promise<void> {
    return this.transactions.run((m) => this.sessions.setFlash(m, session.idHash, flash));
  }

  takeFlash(session: DeveloperSession): Promise<(Flash & { section?: string }) | null> {
    return this.sessions.takeFlash(session.idHash);
  }

  async signOut(session: DeveloperSession): Promise<void> {
    await this.transactions.run((m) => this.sessions.end(m, session.idHash));
  }
}

/** The enrolment URI authenticator apps read (Key Uri Format): issuer "Partner API", SHA-1, 6 digits, 30 s. */
export function otpauthUri(email: string, secret: string): string {
  const label = encodeURIComponent(`Partner API developers:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent('Partner API developers')}&algorithm=SHA1&digits=6&period=30`;
}

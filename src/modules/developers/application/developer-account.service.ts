import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DemoCompanyService } from './demo-company.service';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { SECRET_CONTEXT, SecretBox } from '../../../shared/crypto/secret-box';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type Flash, SignInLockouts, signInKey, type WebSession, WebSessions } from '../../../shared/web';
import { Aal2RequiredError, RateLimitedError } from '../../../shared/domain/errors';
import { clientAddressGroup } from '../../../shared/http/client-address';
import { type MailMessage, Mailer } from '../../../shared/mail/mailer';
import {
  generateTotpSecret,
  hashPassword,
  totpUri,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SecondFactorService,
  verifyPassword,
  verifyTotp,
} from '../../auth/organizations';
import { DeveloperRepository } from '../domain/developer.repository';
import { DEVELOPER_QUOTAS, HourlyQuotaError, QUOTA_WINDOW_MS, secondsUntilFree, SIGNUP_LINK_TTL_MS } from '../domain/developer-quotas';

/** CONTRACT §15: a developer session lasts at most 12 hours, and ends after 30 minutes without a request. */
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;
export const SESSION_IDLE_MS = 30 * 60_000;
/** The last-seen time is written at most once a minute, not on every page. */
const SEEN_WRITE_MS = 60_000;
const PURPOSE = 'developer';
// no control character (a NUL never reaches the database: PostgreSQL refuses it in text, issue 35 finding 8)
const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** What a developer session keeps: when it was last used, and the sign-up in progress (its TOTP secret sealed, CONTRACT §8). */
export interface DeveloperSessionData {
  /** ms since the epoch of the last request (the idle limit) */
  seen: number;
  /** sign-up between the email's link and **Confirm**: the sign-up row, its email and the secret being enrolled */
  enrolment?: { signupId?: string; email: string; sealedTotpSecret: string };
}

export type DeveloperSession = WebSession<DeveloperSessionData>;
export type FieldErrors = Partial<Record<'email' | 'password' | 'code', string>>;

export type SignInResult = { kind: 'ok'; cookie: string; session: DeveloperSession } | { kind: 'failed' } | { kind: 'locked'; retryAfterSeconds: number };

/** **Create account**: the form again, or the email sent (the same answer for a new email and one with an account). */
export type SignupResult = { kind: 'errors'; errors: FieldErrors } | { kind: 'sent'; email: string };

export type VerifyResult = { kind: 'enrol'; secret: string; uri: string; cookie: string; session: DeveloperSession } | { kind: 'expired' };

export type ConfirmResult =
  | { kind: 'ok'; cookie: string; session: DeveloperSession }
  /** the sign-up is gone (an error at the email: the form again), or the password or the code is refused (the enrolment page again) */
  | { kind: 'invalid'; errors: FieldErrors; enrolment?: { secret: string; uri: string } }
  /** the email had an account already (made through another link meanwhile): no second one; the developer signs in with it */
  | { kind: 'existing' };

/** catalogue key (developers/views/messages.ts) */
const LINK_EXPIRED = 'developers.linkExpired';

/** An email a developer account can have; else the catalogue key of its error (developers/views/messages.ts). */
function emailError(email: string): string | undefined {
  return email.length === 0 || email.length > 254 || !EMAIL_SHAPE.test(email) ? 'developers.emailInvalid' : undefined;
}

/** A password of 12–128 characters; else the catalogue key of its error. */
function passwordError(password: string): string | undefined {
  const length = [...password].length;
  return length < PASSWORD_MIN || length > PASSWORD_MAX ? 'developers.passwordLength' : undefined;
}

/**
 * The checks of the console's create call: an email, and a password of 12–128 characters (on the
 * pages, **Create account** checks the email and the link's page the password). Each error is a
 * catalogue key of developers/views/messages.ts (the console call words it in English).
 */
export function credentialErrors(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const e = emailError(email);
  const p = passwordError(password);
  if (e) errors.email = e;
  if (p) errors.password = p;
  return errors;
}

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Developer accounts (CONTRACT §15, issue 35): sign-up proves the email first — **Create account**
 * takes the email only and sends a link (SMTP, or the log without SMTP_URL); the link leads to the
 * page where the password is chosen and the TOTP secret enrolled, and **Confirm** makes the account
 * (CONTRACT §20, issue 43 finding 6: whoever follows the link controls the mailbox, so only they set
 * the password) —; sign-in with password and a current, unused code (§8) under the
 * kernel's per-(email, address) lockout and the owners' per-account code lockout; sessions of the page
 * kernel (src/shared/web) with a 12 h absolute and 30 min idle limit.
 */
@Injectable()
export class DeveloperAccountService implements OnApplicationBootstrap {
  private readonly logger = new Logger('developers');

  constructor(
    private readonly repo: DeveloperRepository,
    private readonly sessions: WebSessions,
    private readonly lockouts: SignInLockouts,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly secondFactor: SecondFactorService,
    private readonly mailer: Mailer,
    private readonly demo: DemoCompanyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get signupOpen(): boolean {
    return this.config.developerSignup === 'open';
  }

  /** Whether sign-up links leave by email (SMTP_URL set); else they are in the log, and the pages say so (CONTRACT §2). */
  get linksEmailed(): boolean {
    return this.mailer.sends;
  }

  /** The start log says what is off without SMTP_URL (the banner on stdout says it too). */
  onApplicationBootstrap(): void {
    if (this.signupOpen && !this.mailer.sends) {
      this.logger.warn('SMTP_URL is not set: developer sign-up sends no email; each confirmation link is written to this log at warn instead');
    }
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
   * **Create account**: checks the email, then sends one email — a confirmation link for a new email,
   * a notice to sign in for an email that has an account — and answers the same either way (nothing
   * tells them apart: both record one row and send one email). No password is taken here (CONTRACT
   * §20): a stranger who starts a sign-up for someone else's email sets nothing the owner of the mailbox
   * would inherit. No account exists until the link is followed, the password chosen and the
   * authenticator confirmed. At most DEVELOPER_QUOTAS' emails per email and per client (IPv6 /64)
   * within the hour; more is a 429.
   */
  async beginSignup(emailRaw: unknown, clientAddress: string): Promise<SignupResult> {
    const email = typeof emailRaw === 'string' ? emailRaw.trim() : '';
    const error = emailError(email);
    if (error) return { kind: 'errors', errors: { email: error } };
    const now = this.clock.now();
    const client = clientAddressGroup(clientAddress);
    const token = randomBytes(32).toString('base64url');
    const existing = await this.transactions.run(async (m) => {
      await this.repo.lockSignupSenders(m, email, client);
      const sent = await this.repo.signupsSent(m, email, client, new Date(now.getTime() - QUOTA_WINDOW_MS));
      if (sent.email.n >= DEVELOPER_QUOTAS.signupEmailsPerEmailPerHour) {
        throw new HourlyQuotaError(
          secondsUntilFree(sent.email.oldest as Date, now),
          `We sent ${sent.email.n} emails to this address within the hour. Check your inbox and spam folder`,
          'signupEmailsPerEmailPerHour',
        );
      }
      if (sent.client.n >= DEVELOPER_QUOTAS.signupEmailsPerClientPerHour) {
        throw new HourlyQuotaError(
          secondsUntilFree(sent.client.oldest as Date, now),
          'Too many sign-ups from your network within the hour',
          'signupEmailsPerClientPerHour',
        );
      }
      const has = (await this.repo.findByEmail(m, email)) !== null;
      await this.repo.recordSignup(m, {
        id: randomUUID(),
        email,
        client,
        tokenHash: has ? null : tokenHash(token),
        at: now,
        // a notice's row only counts towards the hour
        expiresAt: new Date(now.getTime() + (has ? QUOTA_WINDOW_MS : SIGNUP_LINK_TTL_MS)),
      });
      return has;
    });
    await this.mailer.send(existing ? this.noticeEmail(email) : this.linkEmail(email, token));
    return { kind: 'sent', email };
  }

  private linkEmail(email: string, token: string): MailMessage {
    const link = `${this.config.publicOrigin}/developers/signup/verify?token=${token}`;
    const hours = SIGNUP_LINK_TTL_MS / 3600_000;
    return {
      to: email,
      subject: 'Confirm your Partner API developer account',
      text: [
        'Someone, we hope you, asked for a Partner API developer account for this email address.',
        '',
        `To go on, open this link within ${hours} hours (it works once), then choose your password and set up your authenticator app:`,
        link,
        '',
        'If it was not you, ignore this email: no account is made.',
      ].join('\n'),
      logLine: `developer sign-up link for ${email} (SMTP_URL is not set, so no email was sent; the link works once, for ${hours} hours): ${link}`,
    };
  }

  private noticeEmail(email: string): MailMessage {
    return {
      to: email,
      subject: 'Your Partner API developer account',
      text: [
        'Someone, we hope you, asked for a new Partner API developer account for this email address.',
        'It has an account already, so no second one is made. Sign in with it here:',
        `${this.config.publicOrigin}/developers/signin`,
        '',
        'If it was not you, ignore this email: nothing was changed.',
      ].join('\n'),
      logLine: `developer sign-up for ${email}: the email has an account already, so the email (not sent: SMTP_URL is not set) only says to sign in`,
    };
  }

  /**
   * The email's link: while it works (unused, unexpired), a new TOTP secret to enrol in this browser's
   * session. Following it uses nothing up (mail scanners open links too): **Confirm** does.
   */
  async verifyLink(session: DeveloperSession, tokenRaw: unknown): Promise<VerifyResult> {
    if (typeof tokenRaw !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(tokenRaw)) return { kind: 'expired' };
    const now = this.clock.now();
    const pending = await this.transactions.run((m) => this.repo.openSignup(m, { tokenHash: tokenHash(tokenRaw) }, now, false));
    if (!pending) return { kind: 'expired' };
    const secret = generateTotpSecret();
    const data: DeveloperSessionData = {
      seen: now.getTime(),
      enrolment: { signupId: pending.id, email: pending.email, sealedTotpSecret: this.box.seal(secret, SECRET_CONTEXT.developerTotp) },
    };
    const kept = await this.transactions.run((m) => this.sessions.persist(m, session, data));
    return { kind: 'enrol', secret, uri: totpUri(this.config.serviceName, pending.email, secret), cookie: kept.cookie, session: kept.session };
  }

  /**
   * **Confirm**: the password chosen on the link's page (CONTRACT §20: set by whoever followed the
   * link) and the code of the enrolled secret make the account from the sign-up (its link then stops
   * working) and sign the developer in.
   */
  async confirmSignup(session: DeveloperSession, passwordRaw: unknown, codeRaw: unknown): Promise<ConfirmResult> {
    const enrolment = session.data.enrolment;
    if (!enrolment?.signupId) return { kind: 'invalid', errors: { email: 'developers.startAgain' } };
    const signupId = enrolment.signupId;
    const totpSecret = this.box.openAny(enrolment.sealedTotpSecret, SECRET_CONTEXT.developerTotp);
    const now = this.clock.now();
    const password = typeof passwordRaw === 'string' ? passwordRaw : '';
    const errors: FieldErrors = {};
    const badPassword = passwordError(password);
    if (badPassword) errors.password = badPassword;
    const check = verifyTotp(totpSecret, codeRaw, now.getTime(), null);
    if (!check.ok) errors.code = 'developers.codeWrong';
    if (!check.ok || badPassword) {
      return { kind: 'invalid', errors, enrolment: { secret: totpSecret, uri: totpUri(this.config.serviceName, enrolment.email, totpSecret) } };
    }
    const passwordHash = await hashPassword(password);
    const id = randomUUID();
    const result = await this.transactions.run(async (m) => {
      const pending = await this.repo.openSignup(m, { id: signupId }, now, true);
      if (!pending) return 'expired' as const;
      const created = await this.repo.create(m, { id, email: pending.email, passwordHash, totpSecret, lastAcceptedStep: check.step, at: now });
      // single use: this link and any other sent to the email stop working
      await this.repo.closeSignups(m, pending.email);
      if (!created) {
        await this.sessions.setData(m, session.idHash, { seen: now.getTime() });
        return null;
      }
      // CONTRACT §15: the account comes with its demo company
      await this.demo.ensureWithin(m, id);
      return this.sessions.signIn<DeveloperSessionData>(m, session, id, { seen: now.getTime() });
    });
    if (result === 'expired') return { kind: 'invalid', errors: { email: LINK_EXPIRED } };
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
    return this.lockouts.attempt(
      key,
      clientAddress,
      () => this.checkFactors(session, email, password, codeRaw),
      () => this.logger.warn({ email_key: key.slice(0, 12) }, 'developer sign-in locked for 15 minutes after 5 failures from one address'),
    );
  }

  private async checkFactors(session: DeveloperSession, email: string, password: string, codeRaw: unknown): Promise<SignInResult> {
    const now = this.clock.now();
    // an email no account can have (a control character, which PostgreSQL may refuse) is looked up nowhere
    const developer = email === '' || /\p{Cc}/u.test(email) ? null : await this.transactions.run((m) => this.repo.findByEmail(m, email));
    const passwordOk = await verifyPassword(developer?.passwordHash ?? null, password);
    if (!developer || !passwordOk) return { kind: 'failed' };
    try {
      const signedIn = await this.transactions.run(async (m) => {
        const locked = await this.repo.findForUpdate(m, developer.id);
        if (!locked) throw new Aal2RequiredError();
        // the owners' per-account lockout (CONTRACT §8): 5 wrong codes of this developer from any
        // addresses refuse its codes for 15 minutes (issue 35)
        await this.secondFactor.guard(m, developer.id, now, 'developer', async () => {
          const check = verifyTotp(locked.totpSecret, codeRaw, now.getTime(), locked.lastAcceptedStep);
          return check.ok && (await this.repo.consumeStep(m, developer.id, check.step));
        });
        await this.repo.signedIn(m, developer.id, now);
        return this.sessions.signIn<DeveloperSessionData>(m, session, developer.id, { seen: now.getTime() });
      });
      return { kind: 'ok', cookie: signedIn.cookie, session: signedIn.session };
    } catch (err) {
      // a locked account answers as any wrong factor does: a 429 only for the right password would tell
      // a guesser that the password is right (the failure page says that codes pause sign-in)
      if (err instanceof Aal2RequiredError || err instanceof RateLimitedError) return { kind: 'failed' };
      throw err;
    }
  }

  /** **Sign out** ends the session. */
  /** The sign-up in progress as the enrolment page shows it (CONTRACT §18: the page the 303 of the email's link leads to), or null. */
  enrolment(session: DeveloperSession): { secret: string; uri: string } | null {
    const enrolment = session.data.enrolment;
    if (!enrolment) return null;
    const secret = this.box.openAny(enrolment.sealedTotpSecret, SECRET_CONTEXT.developerTotp);
    return { secret, uri: totpUri(this.config.serviceName, enrolment.email, secret) };
  }

  /** What an action leaves for the page its 303 leads to, in this signed-in session (CONTRACT §18). */
  /** A refused form's message for the GET its 303 leads to (CONTRACT §21); a new cookie to set, or null. */
  leaveFlash(session: DeveloperSession, flash: Flash): Promise<string | null> {
    return this.sessions.leaveFlash(session, flash);
  }

  setFlash(session: DeveloperSession, flash: Flash & { section?: string }): Promise<void> {
    return this.transactions.run((m) => this.sessions.setFlash(m, session.idHash, flash));
  }

  takeFlash(session: DeveloperSession): Promise<(Flash & { section?: string }) | null> {
    return this.sessions.takeFlash(session.idHash);
  }

  /** A confirmation page's one-time token (CONTRACT §18: a replayed confirmation does nothing). */
  issueConfirmation(session: DeveloperSession): Promise<string> {
    return this.sessions.issueConfirmation(session.idHash);
  }

  takeConfirmation(session: DeveloperSession, token: unknown): Promise<boolean> {
    return this.sessions.takeConfirmation(session.idHash, token);
  }

  async signOut(session: DeveloperSession): Promise<void> {
    await this.transactions.run((m) => this.sessions.end(m, session.idHash));
  }
}

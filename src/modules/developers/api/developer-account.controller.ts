import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../shared/http/client-address';
import { oneTimeCode, refusedSignIn } from '../../../shared/web';
import QRCode from 'qrcode';
import { DeveloperAccountService, type DeveloperSession, type FieldErrors, type SignupResult } from '../application/developer-account.service';
import { HourlyQuotaError, quotaError, SIGNUP_LINK_TTL_MS } from '../domain/developer-quotas';
import { DeveloperHttp, type DeveloperRequest } from './developer-http';

/** the developers' own wording: it names the per-account code lockout (issue 35) */
const SIGN_IN_FAILED = 'developers.signInFailed';
/** A field error of the account forms: a catalogue key, or a key with its parameters. */
type FormErrors = Partial<Record<keyof FieldErrors, string | { key: string; params?: Record<string, string | number> }>>;
const keyed = (errors: FormErrors) => Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, typeof v === 'string' ? { key: v } : v]));

/**
 * CONTRACT §15 "Account": sign-up with proof of the email (issue 35) and TOTP enrolment (a QR code as
 * server-made SVG, the secret in groups of four), sign-in, sign-out. Every POST that succeeds answers
 * 303 (CONTRACT §18): Create account (the email only) leads to "Check your email" (or, without SMTP_URL,
 * to where the link is: the log); the email's link sets the sign-up in the session and leads (303) to
 * the enrolment page, which shows it from the session and asks for the password (CONTRACT §20);
 * Confirm makes the account.
 */
@ApiExcludeController()
@Controller('developers')
export class DeveloperAccountController {
  constructor(
    private readonly accounts: DeveloperAccountService,
    private readonly http: DeveloperHttp,
  ) {}

  @Get()
  async home(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    this.http.seeOther(res, session?.subjectId ? '/developers/apps' : '/developers/signin');
  }

  @Get('signup')
  async signupPage(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    await this.anonymous(req, res);
    this.signupForm(req, res, 200, '', {});
  }

  @Post('signup')
  @HttpCode(303)
  async signup(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    let result: SignupResult;
    try {
      result = await this.accounts.beginSignup(body.email, clientAddress(req));
    } catch (err) {
      if (!(err instanceof HourlyQuotaError)) throw err;
      // a refused POST keeps its status on the form it shows again (CONTRACT §18)
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      const error = quotaError(err);
      // without SMTP_URL the links are in the log, not in an inbox: the words say so (CONTRACT §2)
      if (!this.accounts.linksEmailed && err.quota === 'signupEmailsPerEmailPerHour') error.key += 'InLog';
      return this.signupForm(req, res, 429, email, { email: error });
    }
    if (result.kind === 'errors') return this.signupForm(req, res, 422, email, result.errors);
    // issue 35: the same answer whether or not the email has an account
    this.http.seeOther(res, '/developers/signup/sent');
  }

  @Get('signup/sent')
  sent(@Res() res: Response): void {
    if (!this.accounts.signupOpen) return this.closed(res);
    res.locals.switchPath = '/developers/signup/sent';
    // CONTRACT §2: without SMTP_URL no email leaves; the page says where the link is, never "check your email"
    const [title, text] = this.accounts.linksEmailed
      ? ['developers.checkEmailTitle', 'developers.checkEmail']
      : ['developers.linkInLogTitle', 'developers.linkInLog'];
    this.http.message(res, 200, title, text, { params: { hours: SIGNUP_LINK_TTL_MS / 3600_000 } });
  }

  /** The email's link: sets the enrolment (a new TOTP secret for this browser) in the session, then 303 to the enrolment page; or a page saying the link no longer works. */
  @Get('signup/verify')
  async verify(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.anonymous(req, res);
    const result = await this.accounts.verifyLink(session, req.query.token);
    if (result.kind === 'expired') {
      // the language switch leads to this page without the token: the token is on no page (it proves the email)
      res.locals.switchPathOverride = '/developers/signup/verify';
      return this.http.message(res, 404, 'developers.linkDeadTitle', 'developers.linkDead');
    }
    req.webSession = result.session;
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/signup/confirm');
  }

  /** The enrolment page of the sign-up in progress (the 303 of the email's link leads here): the password and the authenticator; a reload shows it again. */
  @Get('signup/confirm')
  async enrolPage(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.session(req);
    const enrolment = session ? this.accounts.enrolment(session) : null;
    if (!session || !enrolment) return this.http.seeOther(res, '/developers/signup');
    await this.enrolForm(req, res, 200, enrolment, {});
  }

  @Post('signup/confirm')
  @HttpCode(303)
  async confirm(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.accounts.confirmSignup(session, body.password, oneTimeCode(body.code));
    if (result.kind === 'invalid') {
      if (!result.enrolment) return this.signupForm(req, res, 422, '', result.errors);
      // the secret stays the one being enrolled; the page shows it again with the errors at their fields
      return this.enrolForm(req, res, 422, result.enrolment, result.errors);
    }
    if (result.kind === 'existing') return this.http.seeOther(res, '/developers/signin?notice=existing');
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/apps');
  }

  @Get('signin')
  async signInPage(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.anonymous(req, res);
    if (session.subjectId) return this.http.seeOther(res, '/developers/apps');
    const refused = await this.accounts.takeFlash(session);
    const notice = (req.query as Record<string, unknown>).notice === 'existing' ? 'developers.existingNotice' : null;
    this.signInForm(req, res, refused?.fields?.email ?? '', refused?.status?.key ?? null, notice);
  }

  @Post('signin')
  @HttpCode(303)
  async signIn(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.accounts.signIn(session, body.email, body.password, oneTimeCode(body.code), clientAddress(req));
    if (result.kind !== 'ok') {
      // CONTRACT §21: 303 back to the form, so that a reload shows it again and counts nothing
      const cookie = await this.accounts.leaveFlash(session, refusedSignIn(result, body.email, SIGN_IN_FAILED));
      return this.http.backToForm(res, '/developers/signin', cookie);
    }
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/apps');
  }

  @Post('signout')
  @HttpCode(303)
  async signOut(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    await this.accounts.signOut(session);
    this.http.clearSession(res);
    this.http.seeOther(res, '/developers/signin');
  }

  private async session(req: DeveloperRequest): Promise<DeveloperSession | null> {
    req.webSession = await this.accounts.loadSession(this.http.sessionCookieValue(req));
    return req.webSession;
  }

  /** The session of a page before sign-in (its forms need a CSRF token bound to one). */
  private async anonymous(req: DeveloperRequest, res: Response): Promise<DeveloperSession> {
    const existing = await this.session(req);
    if (existing) return existing;
    const started = await this.accounts.startSession();
    this.http.setSession(res, started.cookie);
    req.webSession = started.session;
    return started.session;
  }

  private signupForm(req: DeveloperRequest, res: Response, status: number, email: string, errors: FormErrors): void {
    res.locals.switchPath = '/developers/signup';
    this.http.page(res, status, 'signup', {
      titleKey: 'developers.createAccount',
      narrow: true,
      email,
      errors: keyed(errors),
      csrf: this.http.csrfToken(req, res),
      emailHint: this.accounts.linksEmailed ? 'developers.signupEmailHint' : 'developers.signupLogHint',
    });
  }

  /** The enrolment page: the secret in groups of four, its otpauth:// link and a QR code drawn on the server as SVG (no script). */
  private async enrolForm(req: DeveloperRequest, res: Response, status: number, enrolment: { secret: string; uri: string }, errors: FormErrors): Promise<void> {
    res.locals.switchPath = '/developers/signup/confirm';
    const qrSvg = await QRCode.toString(enrolment.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    this.http.page(res, status, 'enrol', {
      titleKey: 'developers.enrolTitle',
      narrow: true,
      secretGroups: enrolment.secret.replace(/(.{4})(?=.)/g, '$1 '),
      uri: enrolment.uri,
      qrSvg,
      csrf: this.http.csrfToken(req, res),
      errors: keyed(errors),
    });
  }

  private signInForm(req: DeveloperRequest, res: Response, email: string, error: string | null, notice: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    res.locals.switchPath = '/developers/signin';
    this.http.page(res, 200, 'signin', { titleKey: 'web.signIn', narrow: true, email, error, notice, csrf, signupOpen: this.accounts.signupOpen });
  }

  private closed(res: Response): void {
    this.http.message(res, 404, 'developers.signupClosedTitle', 'developers.signupClosed');
  }
}

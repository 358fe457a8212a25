import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../shared/http/client-address';
import { oneTimeCode } from '../../../shared/web';
import QRCode from 'qrcode';
import { DeveloperAccountService, type DeveloperSession, type FieldErrors } from '../application/developer-account.service';
import { DeveloperHttp, type DeveloperRequest } from './developer-http';

const SIGN_IN_FAILED = 'web.signInFailed';
const LOCKED = 'web.signInLocked';
/** A field error of the account forms: a catalogue key. */
const keyed = (errors: FieldErrors) => Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, { key: v as string }]));

/**
 * CONTRACT §15 "Account": sign-up with TOTP enrolment (a QR code as server-made SVG, the secret in
 * groups of four), sign-in, sign-out. Every POST that succeeds answers 303 (CONTRACT §18): Create
 * account leads to the enrolment page, which shows the sign-up in progress from the session.
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
    const result = await this.accounts.beginSignup(session, body.email, body.password);
    if ('errors' in result) return this.signupForm(req, res, 422, typeof body.email === 'string' ? body.email.slice(0, 254) : '', result.errors);
    // the session has a new id now; the enrolment page reads the sign-up in progress from it
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/signup/confirm');
  }

  /** The enrolment page of the sign-up in progress (the 303 of Create account leads here); a reload shows it again. */
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
    const result = await this.accounts.confirmSignup(session, oneTimeCode((req.body as Record<string, unknown>).code));
    if (result.kind === 'invalid') {
      if (!result.enrolment) return this.signupForm(req, res, 422, '', { email: result.error });
      // the secret stays the one being enrolled; the page shows it again with the error at the code
      return this.enrolForm(req, res, 422, result.enrolment, { code: result.error });
    }
    if (result.kind === 'existing') return this.http.seeOther(res, '/developers/signin?notice=existing');
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/apps');
  }

  @Get('signin')
  async signInPage(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.anonymous(req, res);
    if (session.subjectId) return this.http.seeOther(res, '/developers/apps');
    this.signInForm(req, res, 200, '', null, (req.query as Record<string, unknown>).notice === 'existing' ? 'developers.existingNotice' : null);
  }

  @Post('signin')
  @HttpCode(303)
  async signIn(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const result = await this.accounts.signIn(session, body.email, body.password, oneTimeCode(body.code), clientAddress(req));
    if (result.kind === 'locked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return this.signInForm(req, res, 429, email, LOCKED, null);
    }
    if (result.kind === 'failed') return this.signInForm(req, res, 401, email, SIGN_IN_FAILED, null);
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

  private signupForm(req: DeveloperRequest, res: Response, status: number, email: string, errors: FieldErrors): void {
    res.locals.switchPath = '/developers/signup';
    this.http.page(res, status, 'signup', { titleKey: 'developers.createAccount', narrow: true, email, errors: keyed(errors), csrf: this.http.csrfToken(req, res) });
  }

  /** The enrolment page: the secret in groups of four, its otpauth:// link and a QR code drawn on the server as SVG (no script). */
  private async enrolForm(req: DeveloperRequest, res: Response, status: number, enrolment: { secret: string; uri: string }, errors: FieldErrors): Promise<void> {
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

  private signInForm(req: DeveloperRequest, res: Response, status: number, email: string, error: string | null, notice: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    res.locals.switchPath = '/developers/signin';
    this.http.page(res, status, 'signin', { titleKey: 'web.signIn', narrow: true, email, error, notice, csrf, signupOpen: this.accounts.signupOpen });
  }

  private closed(res: Response): void {
    this.http.message(res, 404, 'developers.signupClosedTitle', 'developers.signupClosed');
  }
}

import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../shared/http/client-address';
import { RateLimitedError } from '../../../shared/domain/errors';
import { DeveloperAccountService, type DeveloperSession, type FieldErrors, type SignupResult } from '../application/developer-account.service';
import { SIGNUP_LINK_TTL_MS } from '../domain/developer-quotas';
import { DeveloperHttp, type DeveloperRequest } from './developer-http';

const SIGN_IN_FAILED = 'Sign-in failed. Check what you entered and try again. After 5 wrong authenticator codes, sign-in to an account pauses for 15 minutes.';
const LOCKED = 'Too many failed sign-ins for this email. Try again in 15 minutes.';

/** CONTRACT §15 "Account": sign-up with TOTP enrolment, sign-in, sign-out. */
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
  @HttpCode(200)
  async signup(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    let result: SignupResult;
    try {
      result = await this.accounts.beginSignup(body.email, body.password, clientAddress(req));
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      return this.signupForm(req, res, 429, email, { email: `${err.detail}.` });
    }
    if (result.kind === 'errors') return this.signupForm(req, res, 422, email, result.errors);
    // issue 35: the same answer whether or not the email has an account
    this.http.seeOther(res, '/developers/signup/sent');
  }

  @Get('signup/sent')
  sent(@Res() res: Response): void {
    if (!this.accounts.signupOpen) return this.closed(res);
    this.http.page(res, 200, 'message', {
      title: 'Check your email',
      message: `We sent an email to the address you entered. Open the link in it within ${SIGNUP_LINK_TTL_MS / 3600_000} hours to set up your authenticator and finish. No email after a few minutes? Look in the spam folder, or create the account again.`,
    });
  }

  /** The email's link: the enrolment page (a new TOTP secret for this browser), or a page saying the link no longer works. */
  @Get('signup/verify')
  async verify(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.anonymous(req, res);
    const result = await this.accounts.verifyLink(session, req.query.token);
    if (result.kind === 'expired') {
      return this.http.page(res, 404, 'message', {
        title: 'This link does not work',
        message: 'The link has expired or was used already. Create your account again to get a new one.',
      });
    }
    req.webSession = result.session;
    this.http.setSession(res, result.cookie);
    this.http.page(res, 200, 'enrol', { title: 'Set up your authenticator', narrow: true, secret: result.secret, uri: result.uri, csrf: this.http.csrfToken(req, res), errors: {} });
  }

  @Post('signup/confirm')
  @HttpCode(200)
  async confirm(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    if (!this.accounts.signupOpen) return this.closed(res);
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const result = await this.accounts.confirmSignup(session, (req.body as Record<string, unknown>).code);
    if (result.kind === 'invalid') {
      if (!result.enrolment) return this.signupForm(req, res, 422, '', { email: result.error });
      // the secret stays the one being enrolled; the page shows it again with the error at the code
      const { secret, uri } = result.enrolment;
      return this.http.page(res, 422, 'enrol', { title: 'Set up your authenticator', narrow: true, secret, uri, csrf: this.http.csrfToken(req, res), errors: { code: result.error } });
    }
    if (result.kind === 'existing') {
      return this.signInForm(req, res, 200, '', null, 'This email has an account already, so no second one was made: sign in with it.');
    }
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/apps');
  }

  @Get('signin')
  async signInPage(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.anonymous(req, res);
    if (session.subjectId) return this.http.seeOther(res, '/developers/apps');
    this.signInForm(req, res, 200, '', null, null);
  }

  @Post('signin')
  @HttpCode(200)
  async signIn(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const result = await this.accounts.signIn(session, body.email, body.password, body.code, clientAddress(req));
    if (result.kind === 'locked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return this.signInForm(req, res, 429, email, LOCKED, null);
    }
    if (result.kind === 'failed') return this.signInForm(req, res, 401, email, SIGN_IN_FAILED, null);
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/developers/apps');
  }

  @Post('signout')
  @HttpCode(200)
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
    this.http.page(res, status, 'signup', { title: 'Create account', narrow: true, email, errors, csrf: this.http.csrfToken(req, res) });
  }

  private signInForm(req: DeveloperRequest, res: Response, status: number, email: string, error: string | null, notice: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    this.http.page(res, status, 'signin', { title: 'Sign in', narrow: true, email, error, notice, csrf, signupOpen: this.accounts.signupOpen });
  }

  private closed(res: Response): void {
    this.http.page(res, 404, 'message', { title: 'Sign-up is closed', message: 'New developer accounts are made by the operator. Ask them for one.' });
  }
}

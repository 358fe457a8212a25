import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../../shared/http/client-address';
import { ConsentService, DURATION_DAYS } from '../application/consent.service';
import type { ConsentSession } from '../domain/consent.repository';
import { ConsentHttp, type ConsentRequest } from './consent-http';

const SIGN_IN_FAILED = 'Sign-in failed. Check what you entered and try again.';
const LOCKED = 'Too many failed sign-ins for this email. Try again in 15 minutes.';

/**
 * The owner's pages of CONTRACT §11: `/oauth/authorize` (the request's checks, then sign-in), the
 * organization choice and the consent form. Each step after the first is a POST with the session's
 * CSRF token, answered by a 303 to the next page (so reloading never posts twice).
 */
@ApiExcludeController()
@Controller('oauth/authorize')
export class AuthorizeController {
  constructor(
    private readonly consent: ConsentService,
    private readonly http: ConsentHttp,
  ) {}

  @Get()
  async authorize(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const check = await this.consent.checkAuthorize(req.query as Record<string, unknown>);
    if (check.kind === 'page') {
      return this.http.page(res, 400, 'message', { title: 'Invalid request', message: check.message });
    }
    if (check.kind === 'redirect') return this.http.seeOther(res, check.location);
    const { cookie, session } = await this.consent.startSession('authorize', check.request);
    this.http.setSession(res, cookie);
    req.webSession = session;
    this.signInPage(req, res, 200, check.appName, '', null);
  }

  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.consent.signIn(session, body.email, body.password, body.code, clientAddress(req));
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const appName = await this.consent.appName(session.request?.clientId ?? '');
    if (result.kind === 'locked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return this.signInPage(req, res, 429, appName, email, LOCKED);
    }
    if (result.kind === 'failed') return this.signInPage(req, res, 401, appName, email, SIGN_IN_FAILED);
    this.http.setSession(res, result.cookie);
    req.webSession = result.session;
    // the next page is the answer itself (no redirect to follow); GET /oauth/authorize/continue shows it again
    await this.nextPage(req, res, result.session);
  }

  @Get('continue')
  async continue(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req);
    if (!session || session.userId === null) {
      return this.http.page(res, 400, 'message', { title: 'Sign-in needed', message: 'Your sign-in has expired. Go back to the app and start again.' });
    }
    await this.nextPage(req, res, session);
  }

  /** After sign-in: the organization choice, the consent form, or the 303 back to the app (access_denied). */
  private async nextPage(req: ConsentRequest, res: Response, session: ConsentSession): Promise<void> {
    const step = await this.consent.nextStep(session);
    if (step.kind === 'redirect') {
      this.http.clearSession(res);
      return this.http.seeOther(res, step.location);
    }
    const csrf = this.http.csrfToken(req, res);
    this.formsLeadTo(res, session);
    if (step.kind === 'choose') {
      return this.http.page(res, 200, 'organization', { title: 'Choose an organization', appName: step.appName, organizations: step.organizations, csrf });
    }
    this.http.page(res, 200, 'consent', {
      title: `${step.view.appName} asks for access`,
      view: step.view,
      csrf,
      error: null,
      checked: [],
      durationDays: DURATION_DAYS[0],
      mandate: false,
    });
  }

  @Post('organization')
  @HttpCode(200)
  async organization(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    await this.consent.chooseOrganization(session, (req.body as Record<string, unknown>).organization_id);
    await this.nextPage(req, res, (await this.authorizeSession(req)) as ConsentSession);
  }

  @Post('decision')
  @HttpCode(200)
  async decision(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.consent.decide(session, {
      decision: body.decision,
      accountIds: body.account_ids,
      durationDays: body.duration_days,
      mandate: body.mandate,
    });
    if (result === null) return this.http.seeOther(res, '/oauth/authorize/continue');
    if (result.kind === 'invalid') {
      this.formsLeadTo(res, session);
      return this.http.page(res, 422, 'consent', {
        title: `${result.view.appName} asks for access`,
        view: result.view,
        csrf: this.http.csrfToken(req, res),
        error: result.error,
        checked: result.checked,
        durationDays: result.durationDays,
        mandate: result.mandate,
      });
    }
    this.http.clearSession(res);
    this.http.seeOther(res, result.location);
  }

  private async authorizeSession(req: ConsentRequest): Promise<ConsentSession | null> {
    const session = await this.consent.loadSession(this.http.sessionCookieValue(req));
    req.webSession = session && session.purpose === 'authorize' ? session : null;
    return req.webSession;
  }

  /**
   * CONTRACT §11: the flow's forms (sign-in, organization, consent) may be answered by a 303 to the
   * app's redirect URI (the code, or access_denied), so their pages' form-action allows its origin.
   */
  private formsLeadTo(res: Response, session: ConsentSession | null | undefined): void {
    if (session?.request) this.http.allowFormTargets(res, [session.request.redirectUri]);
  }

  private signInPage(req: ConsentRequest, res: Response, status: number, appName: string, email: string, error: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    this.formsLeadTo(res, req.webSession);
    this.http.page(res, status, 'sign-in', { title: 'Sign in', appName, email, error, csrf, action: '/oauth/authorize/sign-in' });
  }
}

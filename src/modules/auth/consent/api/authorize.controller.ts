import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../../shared/http/client-address';
import { firstSupportedTag, refusedSignIn } from '../../../../shared/web';
import { ConsentSessionService } from '../application/consent-session.service';
import { ConsentService, DURATION_DAYS } from '../application/consent.service';
import type { AuthorizationRequest, ConsentSession } from '../domain/consent.repository';
import { requestTag } from '../domain/request-tag';
import { ConsentHttp, type ConsentRequest } from './consent-http';

/** The tag the flow's forms carry of the request they were shown for (CONTRACT §21, a second tab). */
const tagOf = (session: ConsentSession): string => (session.request ? requestTag(session.request) : '');

const SIGN_IN = '/oauth/authorize/sign-in';
const SIGN_OUT = '/oauth/authorize/sign-out';

/** The authorization request as a URL again (the language switch of a page answering a POST leads there). */
function authorizeUrl(r: AuthorizationRequest): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: r.clientId,
    redirect_uri: r.redirectUri,
    scope: r.scopes.join(' '),
    code_challenge: r.codeChallenge,
    code_challenge_method: 'S256',
  });
  if (r.state !== null) q.set('state', r.state);
  if (r.organizationId !== null) q.set('organization_id', r.organizationId);
  if (r.uiLocales) q.set('ui_locales', r.uiLocales);
  return `/oauth/authorize?${q}`;
}

/**
 * The owner's pages of CONTRACT §11 and §18: `/oauth/authorize` (the request's checks, then sign-in),
 * the organization choice and the consent form. Each step after the first is a POST with the session's
 * CSRF token; a POST that succeeds answers 303 (to the next page, GET /oauth/authorize/continue, or to
 * the app), so a reload or Back never posts twice; a refused sign-in answers 303 back to its form
 * (CONTRACT §21), the consent form's refusal (nothing done) keeps its 422.
 */
@ApiExcludeController()
@Controller('oauth/authorize')
export class AuthorizeController {
  constructor(
    private readonly consent: ConsentService,
    private readonly session: ConsentSessionService,
    private readonly http: ConsentHttp,
  ) {}

  @Get()
  async authorize(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    res.locals.uiLocales = firstSupportedTag((req.query as Record<string, unknown>).ui_locales);
    const check = await this.consent.checkAuthorize(req.query as Record<string, unknown>);
    if (check.kind === 'page') return this.http.message(res, 400, 'consent.invalidRequestTitle', check.messageKey);
    if (check.kind === 'redirect') return this.http.seeOther(res, check.location);
    // CONTRACT §21 "one sign-in": an owner signed in (Connected apps, an earlier consent) goes on signed in
    const signedIn = await this.session.loadSession(this.http.sessionCookieValue(req));
    if (signedIn?.userId) {
      const carried = await this.session.continueSignedIn(signedIn, check.request);
      if (carried.cookie !== null) this.http.setSession(res, carried.cookie);
      return this.http.seeOther(res, '/oauth/authorize/continue');
    }
    const { cookie, session } = await this.session.startSession('authorize', check.request);
    this.http.setSession(res, cookie);
    req.webSession = session;
    this.signInPage(req, res, 200, check.appName, '', null);
  }

  @Post('sign-in')
  @HttpCode(303)
  async signIn(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    if (session.request) res.locals.switchPath = authorizeUrl(session.request);
    const body = req.body as Record<string, unknown>;
    const result = await this.session.signIn(session, body.email, body.password, body.code, clientAddress(req));
    if (result.kind !== 'ok') {
      // CONTRACT §21: 303 back to the form, so that a reload shows it again and counts nothing
      const cookie = await this.session.leaveFlash(session, refusedSignIn(result, body.email));
      return this.http.backToForm(res, SIGN_IN, cookie);
    }
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, '/oauth/authorize/continue');
  }

  /** The sign-in form of the request in progress, where a refused sign-in leads (its message, the email typed). */
  @Get('sign-in')
  async signInAgain(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session?.request) return this.http.message(res, 400, 'consent.signInNeededTitle', 'consent.signInExpired');
    if (session.userId !== null) return this.http.seeOther(res, '/oauth/authorize/continue');
    const [flash, appName] = await Promise.all([this.session.takeFlash(session), this.consent.appName(session.request.clientId)]);
    this.signInPage(req, res, 200, appName, flash?.fields?.email ?? '', flash?.status?.key ?? null);
  }

  @Get('continue')
  async continue(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session || session.userId === null) return this.http.message(res, 400, 'consent.signInNeededTitle', 'consent.signInExpired');
    // the request was answered (Back after the decision): still signed in, nothing to decide again
    if (!session.request)
      return this.http.message(res, 200, 'consent.answeredTitle', 'consent.answered', {
        backHref: '/account/connections',
        backLabel: this.http.t(res, 'consent.connectedApps'),
      });
    await this.session.keepLanguage(session, (req.query as Record<string, unknown>).lang);
    res.locals.uiLocales = session.request?.uiLocales ?? null;
    await this.nextPage(req, res, session);
  }

  /** After sign-in: the organization choice, the consent form, or the 303 back to the app (access_denied). */
  private async nextPage(req: ConsentRequest, res: Response, session: ConsentSession): Promise<void> {
    const step = await this.consent.nextStep(session);
    if (step.kind === 'redirect') {
      await this.session.dropRequest(session);
      return this.http.seeOther(res, step.location);
    }
    const csrf = this.http.csrfToken(req, res);
    this.formsLeadTo(res, session);
    if (step.kind === 'choose') {
      return this.http.page(res, 200, 'organization', {
        titleKey: 'consent.chooseTitle',
        appName: step.appName,
        organizations: step.organizations,
        csrf,
        requestTag: tagOf(session),
      });
    }
    this.http.page(res, 200, 'consent', {
      titleKey: 'consent.consentTitle',
      titleParams: { app: step.view.appName },
      signOutAction: SIGN_OUT,
      view: step.view,
      csrf,
      requestTag: tagOf(session),
      error: null,
      checked: [],
      durationDays: DURATION_DAYS[0],
      mandate: false,
    });
  }

  @Post('organization')
  @HttpCode(303)
  async organization(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    if (this.replaced(res, session, req.body)) return;
    await this.consent.chooseOrganization(session, (req.body as Record<string, unknown>).organization_id);
    this.http.seeOther(res, '/oauth/authorize/continue');
  }

  @Post('decision')
  @HttpCode(303)
  async decision(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    res.locals.switchPath = '/oauth/authorize/continue';
    if (this.replaced(res, session, req.body)) return;
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
        titleKey: 'consent.consentTitle',
        titleParams: { app: result.view.appName },
        signOutAction: SIGN_OUT,
        view: result.view,
        csrf: this.http.csrfToken(req, res),
        requestTag: tagOf(session),
        error: result.error,
        checked: result.checked,
        durationDays: result.durationDays,
        mandate: result.mandate,
      });
    }
    // CONTRACT §21: the owner stays signed in (the session holds no request now)
    this.http.seeOther(res, result.location);
  }

  /** CONTRACT §21: the consent page's **Sign out** ends the session and starts the same request again (its sign-in page). */
  @Post('sign-out')
  @HttpCode(303)
  async signOut(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.authorizeSession(req, res);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    await this.session.signOut(session);
    this.http.clearSession(res);
    this.http.seeOther(res, session.request ? authorizeUrl(session.request) : '/account/connections');
  }

  /**
   * CONTRACT §21, a second tab: a form of a request the session no longer holds (a newer one replaced
   * it) decides nothing; its page says so and leads to the newer request (409). True when answered.
   */
  private replaced(res: Response, session: ConsentSession, body: unknown): boolean {
    const posted = (body as Record<string, unknown> | undefined)?.request;
    // a form without the tag (not one of these pages') is taken as before: for the request the session holds
    if (!session.request || posted === undefined || posted === requestTag(session.request)) return false;
    this.http.message(res, 409, 'consent.replacedTitle', 'consent.replaced', {
      backHref: '/oauth/authorize/continue',
      backLabel: this.http.t(res, 'consent.continueNewer'),
    });
    return true;
  }

  private async authorizeSession(req: ConsentRequest, res: Response): Promise<ConsentSession | null> {
    const session = await this.session.loadSession(this.http.sessionCookieValue(req));
    req.webSession = session && session.purpose === 'authorize' ? session : null;
    res.locals.uiLocales = req.webSession?.request?.uiLocales ?? null;
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
    this.http.page(res, status, 'sign-in', { titleKey: 'consent.signInTitle', appName, email, error, csrf, action: SIGN_IN });
  }
}

import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../../shared/http/client-address';
import { ConsentService } from '../application/consent.service';
import { ConsentHttp, type ConsentRequest } from './consent-http';

/** CONTRACT §11 "Connected apps": the owner signs in, sees each app with a grant in force, and can revoke it. */
@ApiExcludeController()
@Controller('account/connections')
export class ConnectionsController {
  constructor(
    private readonly consent: ConsentService,
    private readonly http: ConsentHttp,
  ) {}

  @Get()
  async list(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    let session = await this.connectionsSession(req);
    if (!session || session.userId === null) {
      if (!session) {
        const started = await this.consent.startSession('connections', null);
        this.http.setSession(res, started.cookie);
        session = started.session;
      }
      req.webSession = session;
      return this.signInPage(req, res, 200, '', null);
    }
    const organizations = await this.consent.connections(session);
    this.http.page(res, 200, 'connections', { title: 'Connected apps', organizations, csrf: this.http.csrfToken(req, res) });
  }

  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.consent.signIn(session, body.email, body.password, body.code, clientAddress(req));
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    if (result.kind === 'locked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return this.signInPage(req, res, 429, email, 'Too many failed sign-ins for this email. Try again in 15 minutes.');
    }
    if (result.kind === 'failed') return this.signInPage(req, res, 401, email, 'Sign-in failed. Check what you entered and try again.');
    this.http.setSession(res, result.cookie);
    req.webSession = result.session;
    const organizations = await this.consent.connections(result.session);
    this.http.page(res, 200, 'connections', { title: 'Connected apps', organizations, csrf: this.http.csrfToken(req, res) });
  }

  @Post('revoke')
  @HttpCode(200)
  async revoke(@Req() req: ConsentRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    await this.consent.revokeConnection(session, (req.body as Record<string, unknown>).grant_id);
    this.http.seeOther(res, '/account/connections');
  }

  private async connectionsSession(req: ConsentRequest) {
    const session = await this.consent.loadSession(this.http.sessionCookieValue(req));
    req.webSession = session && session.purpose === 'connections' ? session : null;
    return req.webSession;
  }

  private signInPage(req: ConsentRequest, res: Response, status: number, email: string, error: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    this.http.page(res, status, 'sign-in', { title: 'Sign in', appName: '', email, error, csrf, action: '/account/connections/sign-in' });
  }
}

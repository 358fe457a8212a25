import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DomainError, RateLimitedError } from '../../../shared/domain/errors';
import { DeveloperAccountService, type DeveloperSession } from '../application/developer-account.service';
import { APP_NAME_MAX, DeveloperAppsService } from '../application/developer-apps.service';
import { DEVELOPER_QUOTAS, RevisionPendingError, TooManyAppsError } from '../domain/developer-quotas';
import { TooManyEndpointsError, TooManyEndpointsOnHostError } from '../../webhooks';
import type { DeveloperApp, RequestLogFilter } from '../domain/developer.repository';
import { parseRequestLogFilter } from '../domain/request-log-filter';
import { DeveloperHttp, type DeveloperRequest } from './developer-http';

type Errors = Record<string, string>;
interface FormState {
  errors?: Errors;
  issued?: { label: string; value: string } | null;
  redirectText?: string;
  endpointUrl?: string;
  endpointEnvironment?: string;
  /** a refused **Recover**: which endpoint's form, and the Since as typed */
  recover?: { endpointId: string; since: string };
  logFilter?: RequestLogFilter;
}

/** The Since field: a time without a zone (`2026-11-25 08:00`, what people type) is UTC; anything else goes to the use case as typed. */
export function sinceOfForm(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim().slice(0, 64) : '';
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/.exec(text);
  return local ? `${local[1]}T${local[2]}Z` : text;
}

/** The request log's Older link: the same filters, entries before the page's last one. */
function olderHref(appId: string, filter: RequestLogFilter, before: string): string {
  const q = new URLSearchParams();
  if (filter.environment) q.set('environment', filter.environment);
  if (filter.status) q.set('status', filter.status);
  if (filter.pathContains) q.set('path', filter.pathContains);
  if (filter.requestId) q.set('request_id', filter.requestId);
  q.set('before', before);
  return `/developers/apps/${appId}?${q.toString()}#request-log`;
}

/** The first violation's detail per field, from an invalid_input of an owner's service (e.g. `/redirect_uris/2` → redirect_uris). */
function fieldErrors(err: unknown, field: string, label: string): Errors | null {
  if (!(err instanceof DomainError) || (err.code !== 'invalid_input' && err.code !== 'invalid_amount')) return null;
  const first = err.violations?.[0];
  if (!first) return { [field]: err.detail };
  const line = /^\/[a-z_]+\/(\d+)/.exec(first.pointer);
  return { [field]: line ? `${label} line ${Number(line[1]) + 1}: ${first.detail}` : first.detail };
}

/**
 * CONTRACT §15 "Apps" and "The app page". Every page needs a signed-in developer (else 303 to the
 * sign-in page, or 403 for a POST), every form its CSRF token; an app of another developer is 404.
 * A bad field answers the form again (422) with the error beside it; a secret is shown only on the
 * answer of the action that issues it.
 */
@ApiExcludeController()
@Controller('developers/apps')
export class DeveloperAppsController {
  constructor(
    private readonly accounts: DeveloperAccountService,
    private readonly apps: DeveloperAppsService,
    private readonly http: DeveloperHttp,
  ) {}

  @Get()
  async list(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.signedIn(req, res);
    if (!session) return;
    const apps = await this.apps.list(session.subjectId as string);
    this.http.page(res, 200, 'apps', { title: 'Your apps', apps, signedIn: true, csrf: this.http.csrfToken(req, res) });
  }

  @Get('new')
  async newApp(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.signedIn(req, res);
    if (!session) return;
    this.newAppForm(req, res, 200, '', {});
  }

  @Post()
  @HttpCode(200)
  async create(@Req() req: DeveloperRequest, @Res() res: Response): Promise<void> {
    const session = await this.signedInPost(req, res);
    if (!session) return;
    const raw = (req.body as Record<string, unknown>).name;
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (name.length === 0 || [...name].length > APP_NAME_MAX) {
      return this.newAppForm(req, res, 422, typeof raw === 'string' ? raw.slice(0, 300) : '', { name: `Enter a name of 1 to ${APP_NAME_MAX} characters.` });
    }
    try {
      const app = await this.apps.create(session.subjectId as string, name);
      this.http.seeOther(res, `/developers/apps/${app.id}`);
    } catch (err) {
      if (err instanceof TooManyAppsError) return this.newAppForm(req, res, 422, name, { name: err.detail });
      throw err;
    }
  }

  @Get(':app')
  async show(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string, @Query() query: Record<string, unknown>): Promise<void> {
    const session = await this.signedIn(req, res);
    if (!session) return;
    const app = await this.own(session, appId, res);
    if (!app) return;
    // the request log's filters and Older page (CONTRACT §15)
    const parsed = parseRequestLogFilter(query);
    if ('error' in parsed) return this.http.page(res, 400, 'message', { title: 'Request log', message: parsed.error });
    await this.appPage(req, res, 200, app, { logFilter: parsed.filter });
  }

  @Post(':app/sandbox-token')
  @HttpCode(200)
  async sandboxToken(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    let token: string;
    try {
      ({ token } = await this.apps.newSandboxToken(app));
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      return this.appPage(req, res, 429, app, { errors: { sandbox: `${err.detail}.` } });
    }
    await this.appPage(req, res, 200, app, { issued: { label: 'Sandbox token', value: token } });
  }

  @Post(':app/redirect-uris')
  @HttpCode(200)
  async redirectUris(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const raw = (req.body as Record<string, unknown>).redirect_uris;
    const text = typeof raw === 'string' ? raw.slice(0, 20_000) : '';
    try {
      await this.apps.saveRedirectUris(app, text);
    } catch (err) {
      const errors = fieldErrors(err, 'redirect_uris', 'Redirect URIs');
      if (!errors) throw err;
      return this.appPage(req, res, 422, app, { errors, redirectText: text });
    }
    this.http.seeOther(res, `/developers/apps/${app.appId}#oauth`);
  }

  @Post(':app/client-secret')
  @HttpCode(200)
  async clientSecret(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const { client_secret } = await this.apps.newClientSecret(app);
    await this.appPage(req, res, 200, app, { issued: { label: 'Client secret', value: client_secret } });
  }

  @Post(':app/webhook-endpoints')
  @HttpCode(200)
  async addEndpoint(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    const url = typeof body.url === 'string' ? body.url.trim() : '';
    const environment = body.environment;
    const errors: Errors = {};
    if (url.length === 0 || url.length > 2000) errors.url = 'Enter an absolute http or https URL (up to 2,000 characters).';
    if (environment !== 'sandbox' && environment !== 'production') errors.environment = 'Choose sandbox or production.';
    const state = { endpointUrl: url.slice(0, 2000), endpointEnvironment: typeof environment === 'string' ? environment : 'sandbox' };
    if (errors.url || errors.environment) return this.appPage(req, res, 422, app, { errors, ...state });
    try {
      const { secret } = await this.apps.addEndpoint(req.webSession?.subjectId as string, app, url, environment as 'sandbox' | 'production');
      await this.appPage(req, res, 200, app, { issued: { label: 'Webhook signing secret', value: secret } });
    } catch (err) {
      if (err instanceof TooManyEndpointsError || err instanceof TooManyEndpointsOnHostError) {
        return this.appPage(req, res, 422, app, { errors: { url: err.detail }, ...state });
      }
      const fieldErrs = fieldErrors(err, 'url', 'URL');
      if (!fieldErrs) throw err;
      return this.appPage(req, res, 422, app, { errors: fieldErrs, ...state });
    }
  }

  @Post(':app/webhook-endpoints/delete')
  @HttpCode(200)
  async deleteEndpoint(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    await this.apps.deleteEndpoint(app, (req.body as Record<string, unknown>).endpoint_id);
    this.http.seeOther(res, `/developers/apps/${app.appId}#webhooks`);
  }

  @Post(':app/webhook-endpoints/test')
  @HttpCode(200)
  async sendTest(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    await this.apps.sendTest(app, (req.body as Record<string, unknown>).endpoint_id);
    this.http.seeOther(res, `/developers/apps/${app.appId}#webhooks`);
  }

  @Post(':app/webhook-endpoints/recover')
  @HttpCode(200)
  async recover(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    try {
      await this.apps.recover(app, body.endpoint_id, sinceOfForm(body.since));
    } catch (err) {
      // a bad Since (400) or a disabled endpoint (409, "enable it first"): the form again, the reason beside it
      if (!(err instanceof DomainError) || (err.code !== 'invalid_input' && err.code !== 'resource_conflict')) throw err;
      const recover = { endpointId: String(body.endpoint_id).toLowerCase(), since: typeof body.since === 'string' ? body.since.slice(0, 64) : '' };
      const since = err.code === 'invalid_input' ? `Since ${err.violations?.[0]?.detail ?? err.detail}.` : `${err.detail}.`;
      return this.appPage(req, res, err.code === 'invalid_input' ? 422 : 409, app, { errors: { since }, recover });
    }
    this.http.seeOther(res, `/developers/apps/${app.appId}#webhooks`);
  }

  @Post(':app/webhook-endpoints/rotate-secret')
  @HttpCode(200)
  async rotateSecret(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const { secret } = await this.apps.rotateSecret(app, (req.body as Record<string, unknown>).endpoint_id);
    await this.appPage(req, res, 200, app, {
      issued: { label: 'New webhook signing secret (the previous one also signs for 24 hours)', value: secret },
    });
  }

  @Post(':app/webhook-endpoints/enable')
  @HttpCode(200)
  async enable(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    await this.apps.enable(app, (req.body as Record<string, unknown>).endpoint_id);
    this.http.seeOther(res, `/developers/apps/${app.appId}#webhooks`);
  }

  @Post(':app/deliveries/resend')
  @HttpCode(200)
  async resend(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    await this.apps.resend(app, body.event_id, body.endpoint_id);
    this.http.seeOther(res, `/developers/apps/${app.appId}#webhooks`);
  }

  @Post(':app/revisions')
  @HttpCode(200)
  async submit(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    try {
      await this.apps.submitRevision(app);
    } catch (err) {
      if (err instanceof RevisionPendingError) return this.appPage(req, res, 422, app, { errors: { revisions: err.detail } });
      throw err;
    }
    this.http.seeOther(res, `/developers/apps/${app.appId}#revisions`);
  }

  private async appPage(req: DeveloperRequest, res: Response, status: number, app: DeveloperApp, state: FormState): Promise<void> {
    const view = await this.apps.page(app, state.logFilter);
    this.http.page(res, status, 'app', {
      title: view.name,
      view,
      signedIn: true,
      csrf: this.http.csrfToken(req, res),
      quotas: DEVELOPER_QUOTAS,
      errors: state.errors ?? {},
      issued: state.issued ?? null,
      redirectText: state.redirectText ?? view.redirectUris.join('\n'),
      endpointUrl: state.endpointUrl ?? '',
      endpointEnvironment: state.endpointEnvironment ?? 'sandbox',
      recover: state.recover ?? null,
      requestLogDays: this.apps.requestLogDays,
      olderHref: view.requestLog.older ? olderHref(view.id, view.requestLog.filter, view.requestLog.older) : null,
    });
  }

  private newAppForm(req: DeveloperRequest, res: Response, status: number, name: string, errors: Errors): void {
    this.http.page(res, status, 'new-app', { title: 'New app', narrow: true, name, errors, signedIn: true, csrf: this.http.csrfToken(req, res) });
  }

  /** The signed-in developer's session, or null after answering 303 to the sign-in page. */
  private async signedIn(req: DeveloperRequest, res: Response): Promise<DeveloperSession | null> {
    const session = await this.accounts.loadSession(this.http.sessionCookieValue(req));
    req.webSession = session;
    if (!session?.subjectId) {
      this.http.seeOther(res, '/developers/signin');
      return null;
    }
    return session;
  }

  /** A POST's signed-in session with a valid CSRF token, or null after answering 403 (nothing changed). */
  private async signedInPost(req: DeveloperRequest, res: Response): Promise<DeveloperSession | null> {
    const session = await this.accounts.loadSession(this.http.sessionCookieValue(req));
    req.webSession = session;
    if (!session?.subjectId || !this.http.validPost(req)) {
      this.http.forbidden(res);
      return null;
    }
    return session;
  }

  private async own(session: DeveloperSession, appId: string, res: Response): Promise<DeveloperApp | null> {
    try {
      return await this.apps.own(session.subjectId as string, appId);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') {
        this.http.page(res, 404, 'message', { title: 'Not found', message: 'There is no such app among yours.' });
        return null;
      }
      throw err;
    }
  }

  private async ownPost(req: DeveloperRequest, res: Response, appId: string): Promise<DeveloperApp | null> {
    const session = await this.signedInPost(req, res);
    return session ? this.own(session, appId, res) : null;
  }
}

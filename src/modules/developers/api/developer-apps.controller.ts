import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DomainError } from '../../../shared/domain/errors';
import { badFormPage, type Flash, formatUtc, translate } from '../../../shared/web';
import { DeveloperAccountService, type DeveloperSession } from '../application/developer-account.service';
import { APP_NAME_MAX, DeveloperAppsService } from '../application/developer-apps.service';
import { DEVELOPER_QUOTAS, HourlyQuotaError, quotaError, RevisionPendingError, TooManyAppsError } from '../domain/developer-quotas';
import { SECRET_ROTATIONS, SecretRotationsExhaustedError, TooManyEndpointsError, TooManyEndpointsOnHostError } from '../../webhooks';
import type { DeveloperApp, RequestLogFilter } from '../domain/developer.repository';
import type { PublisherDraft } from '../../auth/apps';
import { KEEP_PREVIOUS_DEFAULT, KEEP_PREVIOUS_FIELD, KEEP_PREVIOUS_SECONDS, type KeepPrevious, keepPreviousSeconds } from '../domain/keep-previous';
import { LOG_FILTER_TEXT_MAX, parseRequestLogFilter } from '../domain/request-log-filter';
import { DeveloperHttp, type DeveloperRequest } from './developer-http';

/** A field's error: a catalogue key and its parameters (the page says it in its language). */
type Errors = Record<string, { key: string; params?: Record<string, string | number> }>;
/** A confirmation page's one choice (radio buttons in its Confirm form). */
interface Choice {
  name: string;
  legend: string;
  options: Array<{ value: string; label: string; checked: boolean }>;
}

/** CONTRACT §21: what the page says of the previous token or secret — until when it works, or that it stopped. */
function previousStatus(key: string, until: Date | null): NonNullable<Flash['status']> {
  return until ? { key: `${key}Until`, params: { until: formatUtc(until) } } : { key: `${key}Ended` };
}
interface FormState {
  errors?: Errors;
  redirectText?: string;
  endpointUrl?: string;
  endpointEnvironment?: string;
  publisher?: PublisherDraft;
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

/**
 * A refusal in the page's words (CONTRACT §18: every text a person reads from the catalogue; the API's
 * English `detail` never shows on a page): the reason the throwing module named, as `reason.<name>`;
 * `otherwise` when it named none.
 */
function inWords(err: DomainError, otherwise: Errors[string], params: Record<string, string | number> = {}): Errors[string] {
  return err.reason ? { key: `developers.reason.${err.reason.name}`, params: { ...err.reason.params, ...params } } : otherwise;
}

/** The first refused redirect URI (the reason's `index`: line index + 1, as the textarea counts). */
function redirectErrors(err: unknown): Errors | null {
  if (!(err instanceof DomainError) || (err.code !== 'invalid_input' && err.code !== 'invalid_amount')) return null;
  const line = Number(err.reason?.params?.index ?? 0) + 1;
  return { redirect_uris: inWords(err, { key: 'developers.reason.redirectUri.format', params: { line } }, { line }) };
}

/** The publisher fields' violations (`/publisher_name`, `/website`, `/privacy_policy`) as the page's errors. */
function publisherErrors(err: unknown): Errors | null {
  if (!(err instanceof DomainError) || err.code !== 'invalid_input') return null;
  const errors: Errors = {};
  for (const v of err.violations ?? []) {
    if (v.pointer === '/publisher_name') errors.publisher_name = { key: 'developers.publisherNameLength' };
    if (v.pointer === '/website') errors.website = { key: 'developers.websiteHttps' };
    if (v.pointer === '/privacy_policy') errors.privacy_policy = { key: 'developers.privacyHttps' };
    if (v.pointer === '/cvr') errors.cvr = { key: 'developers.cvrCheck' };
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.slice(0, max) : '');

/**
 * CONTRACT §15 "Apps" and "The app page". Every page needs a signed-in developer (else 303 to the
 * sign-in page, or 403 for a POST), every form its CSRF token; an app of another developer is 404.
 * A bad field answers the form again (422) with the error beside it. Every POST that succeeds answers
 * 303 to the app page's section it concerns, where its status (and a secret issued once) is shown once
 * from the session (CONTRACT §18); a reload does nothing again. New sandbox token, New client secret
 * and Delete ask first: their buttons lead (GET) to a confirmation page whose **Confirm** posts.
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
    this.http.page(res, 200, 'apps', { titleKey: 'developers.appsTitle', apps, signedIn: true, csrf: this.http.csrfToken(req, res) });
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
      return this.newAppForm(req, res, 422, typeof raw === 'string' ? raw.slice(0, 300) : '', {
        name: { key: 'developers.appNameLength', params: { max: APP_NAME_MAX } },
      });
    }
    try {
      const app = await this.apps.create(session.subjectId as string, name);
      this.http.seeOther(res, `/developers/apps/${app.id}`);
    } catch (err) {
      if (err instanceof TooManyAppsError) return this.newAppForm(req, res, 422, name, { name: { key: 'developers.tooManyApps' } });
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
    if ('error' in parsed)
      return this.http.message(res, 400, 'developers.requestLog', `developers.logFilter.${parsed.error}`, { params: { max: LOG_FILTER_TEXT_MAX } });
    await this.appPage(req, res, 200, app, { logFilter: parsed.filter });
  }

  /** CONTRACT §18: New sandbox token asks first. */
  @Get(':app/sandbox-token')
  async confirmSandboxToken(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownGet(req, res, appId);
    if (!app) return;
    const name = (await this.apps.page(app)).name;
    await this.askFirst(
      req,
      res,
      app,
      'developers.confirmSandboxTitle',
      this.http.t(res, 'developers.confirmSandbox', { app: name }),
      'sandbox-token',
      {},
      'sandbox',
      this.keepChoice(res, 'developers.keepPreviousToken'),
    );
  }

  @Post(':app/sandbox-token')
  @HttpCode(303)
  async sandboxToken(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const keep = keepPreviousSeconds((req.body as Record<string, unknown>)[KEEP_PREVIOUS_FIELD]);
    if (keep === null) return badFormPage(req, res);
    if (!(await this.confirmedOnce(req))) return this.done(req, res, app, 'sandbox', { status: { key: 'developers.confirmationUsed' } });
    let made: { token: string; previous_until: Date | null };
    try {
      made = await this.apps.newSandboxToken(app, keep);
    } catch (err) {
      if (!(err instanceof HourlyQuotaError)) throw err;
      // a refused POST keeps its status on the page it shows again (CONTRACT §18)
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      return this.appPage(req, res, 429, app, { errors: { sandbox: quotaError(err) } });
    }
    await this.done(req, res, app, 'sandbox', {
      secret: { labelKey: 'developers.sandboxToken', value: made.token },
      status: previousStatus('developers.previousToken', made.previous_until),
    });
  }

  @Post(':app/redirect-uris')
  @HttpCode(303)
  async redirectUris(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const redirectText = text((req.body as Record<string, unknown>).redirect_uris, 20_000);
    try {
      await this.apps.saveRedirectUris(app, redirectText);
    } catch (err) {
      const errors = redirectErrors(err);
      if (!errors) throw err;
      return this.appPage(req, res, 422, app, { errors, redirectText });
    }
    await this.done(req, res, app, 'oauth', { status: { key: 'developers.redirectSaved' } });
  }

  /** CONTRACT §18: New client secret asks first. */
  @Get(':app/client-secret')
  async confirmClientSecret(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownGet(req, res, appId);
    if (!app) return;
    const name = (await this.apps.page(app)).name;
    await this.askFirst(
      req,
      res,
      app,
      'developers.confirmSecretTitle',
      this.http.t(res, 'developers.confirmSecret', { app: name }),
      'client-secret',
      {},
      'oauth',
      this.keepChoice(res, 'developers.keepPreviousSecret'),
    );
  }

  @Post(':app/client-secret')
  @HttpCode(303)
  async clientSecret(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const keep = keepPreviousSeconds((req.body as Record<string, unknown>)[KEEP_PREVIOUS_FIELD]);
    if (keep === null) return badFormPage(req, res);
    if (!(await this.confirmedOnce(req))) return this.done(req, res, app, 'oauth', { status: { key: 'developers.confirmationUsed' } });
    const { client_secret, previous_until } = await this.apps.newClientSecret(app, keep);
    await this.done(req, res, app, 'oauth', {
      secret: { labelKey: 'developers.clientSecret', value: client_secret },
      status: previousStatus('developers.previousSecret', previous_until),
    });
  }

  /** CONTRACT §18: the publisher an owner sees on the consent form (https addresses only). */
  @Post(':app/publisher')
  @HttpCode(303)
  async publisher(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    const publisher = {
      name: text(body.publisher_name, 300),
      website: text(body.website, 2100),
      privacyPolicy: text(body.privacy_policy, 2100),
      cvr: text(body.cvr, 40),
    };
    try {
      await this.apps.setPublisher(app, publisher);
    } catch (err) {
      const errors = publisherErrors(err);
      if (!errors) throw err;
      return this.appPage(req, res, 422, app, { errors, publisher });
    }
    await this.done(req, res, app, 'publisher', { status: { key: 'developers.publisherSaved' } });
  }

  @Post(':app/webhook-endpoints')
  @HttpCode(303)
  async addEndpoint(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    const url = typeof body.url === 'string' ? body.url.trim() : '';
    const environment = body.environment;
    const errors: Errors = {};
    if (url.length === 0 || url.length > 2000) errors.url = { key: 'developers.urlHelp' };
    if (environment !== 'sandbox' && environment !== 'production') errors.environment = { key: 'developers.environmentHelp' };
    const state = { endpointUrl: url.slice(0, 2000), endpointEnvironment: typeof environment === 'string' ? environment : 'sandbox' };
    if (errors.url || errors.environment) return this.appPage(req, res, 422, app, { errors, ...state });
    try {
      const { secret } = await this.apps.addEndpoint(req.webSession?.subjectId as string, app, url, environment as 'sandbox' | 'production');
      await this.done(req, res, app, 'webhooks', { secret: { labelKey: 'developers.webhookSecret', value: secret } });
    } catch (err) {
      if (err instanceof TooManyEndpointsError || err instanceof TooManyEndpointsOnHostError || (err instanceof DomainError && err.code === 'invalid_input')) {
        return this.appPage(req, res, 422, app, { errors: { url: inWords(err, { key: 'developers.urlHelp' }) }, ...state });
      }
      throw err;
    }
  }

  /** CONTRACT §18: Delete asks first. */
  @Get(':app/webhook-endpoints/delete')
  async confirmDeleteEndpoint(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const asked = await this.askedEndpoint(req, res, appId);
    if (!asked) return;
    const { app, endpoint } = asked;
    const question = this.http.t(res, 'developers.confirmDelete', { url: endpoint.url, environment: this.http.t(res, `developers.${endpoint.environment}`) });
    this.confirmPage(req, res, app, 'developers.confirmDeleteTitle', question, 'webhook-endpoints/delete', { endpoint_id: endpoint.id }, 'webhooks');
  }

  @Post(':app/webhook-endpoints/delete')
  @HttpCode(303)
  async deleteEndpoint(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const endpoint = await this.apps.endpointOf(app, (req.body as Record<string, unknown>).endpoint_id);
    // a replayed confirmation finds nothing to delete: it says so, and changes nothing
    if (!endpoint) return this.done(req, res, app, 'webhooks', { status: { key: 'developers.endpointGone' } });
    await this.apps.deleteEndpoint(app, endpoint.id);
    await this.done(req, res, app, 'webhooks', { status: { key: 'developers.endpointDeleted', params: { url: endpoint.url } } });
  }

  @Post(':app/webhook-endpoints/test')
  @HttpCode(303)
  async sendTest(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    if (!(await this.byHand(req, res, app, () => this.apps.sendTest(app, (req.body as Record<string, unknown>).endpoint_id)))) return;
    await this.done(req, res, app, 'webhooks', { status: { key: 'developers.testSent' } });
  }

  /** CONTRACT §21: Recover asks first (the Since typed goes along to the confirmation's form). */
  @Get(':app/webhook-endpoints/recover')
  async confirmRecover(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const asked = await this.askedEndpoint(req, res, appId);
    if (!asked) return;
    const { app, endpoint } = asked;
    const query = req.query as Record<string, unknown>;
    const since = typeof query.since === 'string' ? query.since.slice(0, 64) : '';
    const question = this.http.t(res, 'developers.confirmRecover', { url: endpoint.url, environment: endpoint.environment, since });
    await this.askFirst(
      req,
      res,
      app,
      'developers.confirmRecoverTitle',
      question,
      'webhook-endpoints/recover',
      { endpoint_id: endpoint.id, since },
      'webhooks',
    );
  }

  @Post(':app/webhook-endpoints/recover')
  @HttpCode(303)
  async recover(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    if (!(await this.confirmedOnce(req))) return this.done(req, res, app, 'webhooks', { status: { key: 'developers.confirmationUsed' } });
    const body = req.body as Record<string, unknown>;
    try {
      if (!(await this.byHand(req, res, app, () => this.apps.recover(app, body.endpoint_id, sinceOfForm(body.since))))) return;
    } catch (err) {
      // a bad Since (400) or a disabled endpoint (409, "enable it first"): the form again, the reason beside it
      if (!(err instanceof DomainError) || (err.code !== 'invalid_input' && err.code !== 'resource_conflict')) throw err;
      const recover = { endpointId: String(body.endpoint_id).toLowerCase(), since: typeof body.since === 'string' ? body.since.slice(0, 64) : '' };
      const since = inWords(err, { key: err.code === 'invalid_input' ? 'developers.reason.webhookSince.format' : 'developers.reason.webhookRecover.disabled' });
      return this.appPage(req, res, err.code === 'invalid_input' ? 422 : 409, app, { errors: { since }, recover });
    }
    await this.done(req, res, app, 'webhooks', { status: { key: 'developers.recovered' } });
  }

  /** CONTRACT §21: Rotate secret asks first. */
  @Get(':app/webhook-endpoints/rotate-secret')
  async confirmRotate(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const asked = await this.askedEndpoint(req, res, appId);
    if (!asked) return;
    const { app, endpoint } = asked;
    const question = this.http.t(res, 'developers.confirmRotate', { url: endpoint.url, environment: endpoint.environment });
    await this.askFirst(req, res, app, 'developers.confirmRotateTitle', question, 'webhook-endpoints/rotate-secret', { endpoint_id: endpoint.id }, 'webhooks');
  }

  @Post(':app/webhook-endpoints/rotate-secret')
  @HttpCode(303)
  async rotateSecret(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    if (!(await this.confirmedOnce(req))) return this.done(req, res, app, 'webhooks', { status: { key: 'developers.confirmationUsed' } });
    let secret: string;
    try {
      ({ secret } = await this.apps.rotateSecret(app, (req.body as Record<string, unknown>).endpoint_id));
    } catch (err) {
      if (!(err instanceof SecretRotationsExhaustedError)) throw err;
      // CONTRACT §20: 429 with Retry-After, the reason at the top of Webhooks
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      const params = { max: SECRET_ROTATIONS.max, hours: SECRET_ROTATIONS.windowHours, time: formatUtc(new Date(Date.now() + err.retryAfterSeconds * 1000)) };
      return this.appPage(req, res, 429, app, { errors: { rotations: { key: 'developers.quota_secretRotations', params } } });
    }
    await this.done(req, res, app, 'webhooks', { secret: { labelKey: 'developers.rotatedSecret', value: secret } });
  }

  @Post(':app/webhook-endpoints/enable')
  @HttpCode(303)
  async enable(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    await this.apps.enable(app, (req.body as Record<string, unknown>).endpoint_id);
    await this.done(req, res, app, 'webhooks', { status: { key: 'developers.enabled' } });
  }

  @Post(':app/deliveries/resend')
  @HttpCode(303)
  async resend(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    const body = req.body as Record<string, unknown>;
    if (!(await this.byHand(req, res, app, () => this.apps.resend(app, body.event_id, body.endpoint_id)))) return;
    await this.done(req, res, app, 'webhooks', { status: { key: 'developers.resent' } });
  }

  /**
   * A delivery by hand (Resend, Send test event, Recover) within the developer's hourly quota: false once
   * the refusal (429 with Retry-After, the reason at the top of Webhooks) is answered.
   */
  private async byHand(req: DeveloperRequest, res: Response, app: DeveloperApp, send: () => Promise<unknown>): Promise<boolean> {
    try {
      await send();
      return true;
    } catch (err) {
      if (!(err instanceof HourlyQuotaError)) throw err;
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      await this.appPage(req, res, 429, app, { errors: { resends: quotaError(err) } });
      return false;
    }
  }

  /** CONTRACT §21: Submit for review asks first, and says that approval asks every owner to consent again. */
  @Get(':app/revisions')
  async confirmSubmit(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownGet(req, res, appId);
    if (!app) return;
    const name = (await this.apps.page(app)).name;
    await this.askFirst(
      req,
      res,
      app,
      'developers.confirmSubmitTitle',
      this.http.t(res, 'developers.confirmSubmit', { app: name }),
      'revisions',
      {},
      'revisions',
    );
  }

  @Post(':app/revisions')
  @HttpCode(303)
  async submit(@Req() req: DeveloperRequest, @Res() res: Response, @Param('app') appId: string): Promise<void> {
    const app = await this.ownPost(req, res, appId);
    if (!app) return;
    if (!(await this.confirmedOnce(req))) return this.done(req, res, app, 'revisions', { status: { key: 'developers.confirmationUsed' } });
    try {
      await this.apps.submitRevision(app);
    } catch (err) {
      if (err instanceof RevisionPendingError) return this.appPage(req, res, 422, app, { errors: { revisions: { key: 'developers.revisionPending' } } });
      throw err;
    }
    await this.done(req, res, app, 'revisions', { status: { key: 'developers.submitted' } });
  }

  /** The end of an action that succeeded (CONTRACT §18): its status (or secret) for the next page, then 303 to its section. */
  private async done(req: DeveloperRequest, res: Response, app: DeveloperApp, section: string, flash: Flash): Promise<void> {
    await this.accounts.setFlash(req.webSession as DeveloperSession, { ...flash, section });
    this.http.seeOther(res, `/developers/apps/${app.appId}#${section}`);
  }

  /**
   * CONTRACT §18: a confirmation form's token works once — the same form posted again (a double click,
   * a replay) makes nothing more. A POST without one (not from a confirmation page; CSRF-checked as any)
   * is not a replay and goes ahead.
   */
  private async confirmedOnce(req: DeveloperRequest): Promise<boolean> {
    const token = (req.body as Record<string, unknown>).confirmation;
    return token === undefined || (await this.accounts.takeConfirmation(req.webSession as DeveloperSession, token));
  }

  /** The app and the endpoint (`?endpoint_id=`) a confirmation page names, or null once answered (404, or 303 saying it is gone). */
  private async askedEndpoint(
    req: DeveloperRequest,
    res: Response,
    appId: string,
  ): Promise<{ app: DeveloperApp; endpoint: { id: string; url: string; environment: string } } | null> {
    const app = await this.ownGet(req, res, appId);
    if (!app) return null;
    const endpoint = await this.apps.endpointOf(app, (req.query as Record<string, unknown>).endpoint_id);
    if (!endpoint) {
      await this.done(req, res, app, 'webhooks', { status: { key: 'developers.endpointGone' } });
      return null;
    }
    return { app, endpoint };
  }

  /** An action that asks first (CONTRACT §18, §21): its confirmation page, whose form carries a token that works once (and `choice`, if any). */
  private async askFirst(
    req: DeveloperRequest,
    res: Response,
    app: DeveloperApp,
    titleKey: string,
    question: string,
    action: string,
    fields: Record<string, string>,
    section: string,
    choice?: Choice,
  ): Promise<void> {
    const confirmation = await this.accounts.issueConfirmation(req.webSession as DeveloperSession);
    this.confirmPage(req, res, app, titleKey, question, action, { ...fields, confirmation }, section, choice);
  }

  /** CONTRACT §21: how long the previous token or secret keeps working — 24 hours (checked), 1 hour, or not at all. */
  private keepChoice(res: Response, legendKey: string): Choice {
    return {
      name: KEEP_PREVIOUS_FIELD,
      legend: this.http.t(res, legendKey),
      options: (Object.keys(KEEP_PREVIOUS_SECONDS) as KeepPrevious[]).map((k) => ({
        value: k,
        label: this.http.t(res, `developers.keep.${k}`),
        checked: k === KEEP_PREVIOUS_DEFAULT,
      })),
    };
  }

  /** A destructive action's confirmation page: Confirm posts `action`, Cancel returns to the section. */
  private confirmPage(
    req: DeveloperRequest,
    res: Response,
    app: DeveloperApp,
    titleKey: string,
    question: string,
    action: string,
    fields: Record<string, string>,
    section: string,
    choice?: Choice,
  ): void {
    res.locals.switchPath = `/developers/apps/${app.appId}`;
    this.http.page(res, 200, 'confirm', {
      titleKey,
      narrow: true,
      question,
      action: `/developers/apps/${app.appId}/${action}`,
      fields,
      choice,
      cancelPath: `/developers/apps/${app.appId}#${section}`,
      cancelQuery: {},
      signedIn: true,
      csrf: this.http.csrfToken(req, res),
    });
  }

  private async appPage(req: DeveloperRequest, res: Response, status: number, app: DeveloperApp, state: FormState): Promise<void> {
    const view = await this.apps.page(app, state.logFilter, (req.webSession as DeveloperSession).csrfSecret);
    // a page answering a POST (422) shows no flash; a GET takes it, once
    const flash = status === 200 && req.method === 'GET' ? await this.accounts.takeFlash(req.webSession as DeveloperSession) : null;
    const lang = this.http.language(res);
    res.locals.switchPath = `/developers/apps/${view.id}`;
    this.http.page(res, status, 'app', {
      title: view.name,
      view,
      signedIn: true,
      csrf: this.http.csrfToken(req, res),
      quotas: DEVELOPER_QUOTAS,
      errors: state.errors ?? {},
      flash: flash
        ? {
            section: flash.section,
            status: flash.status ? translate(lang, flash.status.key, flash.status.params) : null,
            secret: flash.secret ? { label: translate(lang, flash.secret.labelKey), value: flash.secret.value } : null,
          }
        : null,
      publisher: state.publisher ?? {
        name: view.publisher.name ?? '',
        website: view.publisher.website ?? '',
        privacyPolicy: view.publisher.privacyPolicy ?? '',
        cvr: view.publisher.cvr ?? '',
      },
      redirectText: state.redirectText ?? view.redirectUris.join('\n'),
      endpointUrl: state.endpointUrl ?? '',
      endpointEnvironment: state.endpointEnvironment ?? 'sandbox',
      recover: state.recover ?? null,
      requestLogDays: this.apps.requestLogDays,
      olderHref: view.requestLog.older ? olderHref(view.id, view.requestLog.filter, view.requestLog.older) : null,
    });
  }

  private newAppForm(req: DeveloperRequest, res: Response, status: number, name: string, errors: Errors): void {
    this.http.page(res, status, 'new-app', { titleKey: 'developers.newApp', narrow: true, name, errors, signedIn: true, csrf: this.http.csrfToken(req, res) });
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
        this.http.message(res, 404, 'web.notFoundTitle', 'developers.notFound');
        return null;
      }
      throw err;
    }
  }

  private async ownGet(req: DeveloperRequest, res: Response, appId: string): Promise<DeveloperApp | null> {
    const session = await this.signedIn(req, res);
    return session ? this.own(session, appId, res) : null;
  }

  private async ownPost(req: DeveloperRequest, res: Response, appId: string): Promise<DeveloperApp | null> {
    const session = await this.signedInPost(req, res);
    return session ? this.own(session, appId, res) : null;
  }
}

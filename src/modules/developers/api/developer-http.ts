import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { badFormPage, messagePage, PAGE_SECURITY_HEADERS, PageHttp, pageMiddleware, parseCookies, translate, type WebRequest } from '../../../shared/web';
import { IN_FLIGHT_RETRY_AFTER_SECONDS, InFlightLimit } from '../../rate-limit';
import type { DeveloperSession } from '../application/developer-account.service';
import { type DeveloperPage, renderPage } from '../views/pages';

export type DeveloperRequest = WebRequest<DeveloperSession>;

/** Security headers, cookies and form bodies for the developer pages only (routing comes first; a plain function middleware). */
export const developerPageMiddleware = pageMiddleware(badFormPage);

/**
 * The developer console's session cookie (`developer_session`), CSRF tokens and answers (src/shared/web):
 * English unless something says otherwise (CONTRACT §18), **Sign out** in the top bar when signed in.
 */
@Injectable()
export class DeveloperHttp extends PageHttp<DeveloperPage> {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config, 'developer', renderPage, {
      defaultLang: 'en',
      brand: (lang, service) => translate(lang, 'developers.brand', { service }),
      homeHref: '/developers',
      homePath: '/developers/apps',
    });
  }

  override page(res: Response, status: number, name: DeveloperPage, data: Record<string, unknown>): void {
    super.page(res, status, name, data.signedIn ? { signOutAction: '/developers/signout', ...data } : data);
  }
}

/**
 * CONTRACT §20: at most MAX_IN_FLIGHT_PER_TOKEN requests of one developer-console session in flight on this
 * instance, keyed by its cookie before the session is looked up (a made-up cookie gets no more than a real
 * one) and before a form body is read; one more is the 429 page with Retry-After: 1.
 */
@Injectable()
export class DeveloperInFlightMiddleware implements NestMiddleware {
  constructor(
    private readonly http: DeveloperHttp,
    private readonly inFlight: InFlightLimit,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    parseCookies(req, res, (err?: unknown) => {
      if (err) return next(err);
      const session = this.http.sessionCookieValue(req);
      if (typeof session !== 'string' || session === '' || this.inFlight.tryEnter(`developer-session:${session}`, res)) return next();
      res.setHeader('Retry-After', String(IN_FLIGHT_RETRY_AFTER_SECONDS));
      for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(k, v);
      messagePage(req, res, 429, 'web.tooManyTitle', 'web.tooMany', { seconds: IN_FLIGHT_RETRY_AFTER_SECONDS });
    });
  }
}

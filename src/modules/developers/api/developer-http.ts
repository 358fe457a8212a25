import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { badFormPage, PageHttp, pageMiddleware, translate, type WebRequest } from '../../../shared/web';
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

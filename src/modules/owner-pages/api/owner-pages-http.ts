import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { badFormPage, PageHttp, pageMiddleware, type WebRequest } from '../../../shared/web';
import type { ConsentSession } from '../../auth/consent';
import { type OwnerPage, renderPage } from '../views/pages';

export type OwnerPagesRequest = WebRequest<ConsentSession>;

/** Security headers, cookies and form bodies for the owner pages (routing comes first). */
export const ownerPageMiddleware = pageMiddleware(badFormPage);

/**
 * The owner pages' answers (src/shared/web) under the consent flow's session cookie (`consent_session`:
 * one sign-in serves Connected apps and every later consent, CONTRACT §21) and CSRF tokens: Danish
 * unless something says otherwise (CONTRACT §18), under the service's name.
 */
@Injectable()
export class OwnerPagesHttp extends PageHttp<OwnerPage> {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config, 'consent', renderPage, { defaultLang: 'da', brand: (_lang, service) => service, homePath: '/account/connections' });
  }
}

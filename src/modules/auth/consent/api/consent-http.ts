import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { badFormPage, PageHttp, pageMiddleware, type WebRequest } from '../../../../shared/web';
import type { ConsentSession } from '../domain/consent.repository';
import { type ConsentPage, renderPage } from '../views/pages';

export type ConsentRequest = WebRequest<ConsentSession>;

/**
 * Security headers, cookies and form bodies for the consent routes only (routing comes first): a plain
 * function, which Nest's MiddlewareConsumer applies as it is.
 */
export const consentPageMiddleware = pageMiddleware((req, res, fault) => {
  // the client endpoints answer in RFC 6749 §5.2 JSON, the pages in HTML
  if (req.path === '/oauth/token' || req.path === '/oauth/revoke') {
    res.status(400).json({ error: 'invalid_request', error_description: fault ? 'a parameter holds a control character' : 'the body could not be read' });
  } else {
    badFormPage(req, res, fault);
  }
});

/**
 * The consent pages' session cookie (`consent_session`), CSRF tokens and answers (src/shared/web):
 * Danish unless something says otherwise (CONTRACT §18), under the service's name.
 */
@Injectable()
export class ConsentHttp extends PageHttp<ConsentPage> {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config, 'consent', renderPage, { defaultLang: 'da', brand: (_lang, service) => service, homePath: '/account/connections' });
  }
}

// The consent module's public surface: other modules and the composition root import only this file.
export { ConsentCoreModule, ConsentPagesModule } from './consent.module';
export { ConsentSessionService } from './application/consent-session.service';
export { OAuthClientService } from './application/oauth-client.service';
export { MAX_REDIRECT_URIS } from './domain/redirect-uri';
export { CONSENT_FACTS } from './facts';
export type { ConsentSession } from './domain/consent.repository';
// the consent flow's sign-in, message and confirmation pages, which the owner pages (src/modules/owner-pages) show under the same session
export { renderPage as renderConsentPage } from './views/pages';

// The consent module's public surface: other modules and the composition root import only this file.
export { ConsentCoreModule, ConsentPagesModule } from './consent.module';
export { ConsentService } from './application/consent.service';
export { OAuthClientService } from './application/oauth-client.service';
export { MAX_REDIRECT_URIS } from './domain/redirect-uri';
export { CONSENT_FACTS } from './facts';

import { Module, type MiddlewareConsumer, type NestModule, RequestMethod } from '@nestjs/common';
import { AppsModule } from '../apps';
import { GrantsModule } from '../grants';
import { OrganizationsModule } from '../organizations';
import { AnonymousFormLimitMiddleware, RateLimitModule } from '../../rate-limit';
import { WebKernelModule } from '../../../shared/web';
import { ConsentHttp, consentPageMiddleware } from './api/consent-http';
import { AuthorizeController } from './api/authorize.controller';
import { TokenController } from './api/token.controller';
import { ConsentSessionService } from './application/consent-session.service';
import { ConsentService } from './application/consent.service';
import { OAuthClientService } from './application/oauth-client.service';
import { TokenService } from './application/token.service';
import { ConsentRepository } from './domain/consent.repository';
import { PgConsentRepository } from './infrastructure/pg-consent.repository';

/** The consent flow's services, for both listeners (the console registers clients and reads apps). */
@Module({
  imports: [AppsModule, GrantsModule, OrganizationsModule, WebKernelModule],
  providers: [ConsentService, ConsentSessionService, OAuthClientService, TokenService, { provide: ConsentRepository, useClass: PgConsentRepository }],
  exports: [ConsentService, ConsentSessionService, OAuthClientService, TokenService],
})
export class ConsentCoreModule {}

/** The partner listener's OAuth endpoints and consent pages (CONTRACT §11; Connected apps: src/modules/owner-pages). */
@Module({
  imports: [ConsentCoreModule, RateLimitModule],
  controllers: [TokenController, AuthorizeController],
  providers: [ConsentHttp],
})
export class ConsentPagesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(consentPageMiddleware).forRoutes(TokenController, AuthorizeController);
    // CONTRACT §12: the anonymous limit, before the session's look-up and any password hash
    consumer.apply(AnonymousFormLimitMiddleware).forRoutes({ path: 'oauth/authorize/sign-in', method: RequestMethod.POST });
    // POST /oauth/token and /oauth/revoke count in TokenController: valid client credentials give their point back
  }
}

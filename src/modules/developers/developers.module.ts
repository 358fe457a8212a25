import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { MailModule } from '../../shared/mail/mail.module';
import { WebKernelModule } from '../../shared/web';
import { AppsModule } from '../auth/apps';
import { ConsentCoreModule } from '../auth/consent';
import { OrganizationsModule } from '../auth/organizations';
import { AnonymousFormLimitMiddleware, RateLimitModule } from '../rate-limit';
import { SandboxModule } from '../auth/sandbox';
import { WebhooksModule } from '../webhooks';
import { JournalModule } from '../journal';
import { DeveloperAccountController } from './api/developer-account.controller';
import { DeveloperAppsController } from './api/developer-apps.controller';
import { DeveloperHttp, DeveloperInFlightMiddleware, developerPageMiddleware } from './api/developer-http';
import { DeveloperAccountService } from './application/developer-account.service';
import { DeveloperAppsService } from './application/developer-apps.service';
import { RequestLogRecorder } from './application/request-log.recorder';
import { DevelopersCoreModule } from './developers-core.module';
import { DeveloperPurge, DeveloperPurgeScheduler } from './infrastructure/developer-purge';

/** The developer console (CONTRACT §15) on the partner listener: accounts, apps, the app page, the request log. */
@Module({
  imports: [
    DevelopersCoreModule,
    WebKernelModule,
    MailModule,
    AppsModule,
    SandboxModule,
    OrganizationsModule,
    ConsentCoreModule,
    WebhooksModule,
    RateLimitModule,
    JournalModule,
  ],
  controllers: [DeveloperAccountController, DeveloperAppsController],
  providers: [DeveloperHttp, DeveloperAccountService, DeveloperAppsService, RequestLogRecorder, DeveloperPurge, DeveloperPurgeScheduler],
  exports: [RequestLogRecorder],
})
export class DevelopersModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(DeveloperInFlightMiddleware, developerPageMiddleware).forRoutes(DeveloperAccountController, DeveloperAppsController);
    // CONTRACT §12: the anonymous limit per client address, before the session's look-up and any password hash
    consumer.apply(AnonymousFormLimitMiddleware).forRoutes(
      { path: 'developers/signin', method: RequestMethod.POST },
      { path: 'developers/signup', method: RequestMethod.POST },
      { path: 'developers/signup/confirm', method: RequestMethod.POST },
      // the email's link looks its token up and writes a session
      { path: 'developers/signup/verify', method: RequestMethod.GET },
    );
  }
}

import { Module, type MiddlewareConsumer, type NestModule, RequestMethod } from '@nestjs/common';
import { WebKernelModule } from '../../shared/web';
import { AttachmentsCoreModule } from '../attachments';
import { AppsModule } from '../auth/apps';
import { ConsentCoreModule } from '../auth/consent';
import { GrantsModule } from '../auth/grants';
import { OrganizationsModule } from '../auth/organizations';
import { JournalModule } from '../journal';
import { AnonymousFormLimitMiddleware, RateLimitModule } from '../rate-limit';
import { ReceiptsModule } from '../receipts';
import { ConnectionsController } from './api/connections.controller';
import { OwnerPagesHttp, ownerPageMiddleware } from './api/owner-pages-http';
import { ConnectedAppsService } from './application/connected-apps.service';

/**
 * The owners' pages (CONTRACT §11 "Connected apps", §18): above what they show — grants, journal,
 * attachments, receipts — and above the consent flow, whose session they share. Partner listener only.
 */
@Module({
  imports: [
    ConsentCoreModule,
    AppsModule,
    GrantsModule,
    OrganizationsModule,
    WebKernelModule,
    JournalModule,
    ReceiptsModule,
    AttachmentsCoreModule,
    RateLimitModule,
  ],
  controllers: [ConnectionsController],
  providers: [ConnectedAppsService, OwnerPagesHttp],
  exports: [ConnectedAppsService],
})
export class OwnerPagesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ownerPageMiddleware).forRoutes(ConnectionsController);
    // CONTRACT §12: the anonymous limit, before the session's look-up and any password hash
    consumer.apply(AnonymousFormLimitMiddleware).forRoutes({ path: 'account/connections/sign-in', method: RequestMethod.POST });
  }
}

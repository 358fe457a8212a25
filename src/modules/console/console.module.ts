import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConsoleJsonBodyMiddleware } from '../../shared/http/json-body.middleware';
import { AppsModule } from '../auth/apps';
import { GrantsModule } from '../auth/grants';
import { OrganizationsModule } from '../auth/organizations';
import { SandboxModule } from '../auth/sandbox';
import { ResourceLookupService } from './application/resource-lookup.service';
import { ResourceLookupRepository } from './domain/resource-lookup.repository';
import { PgResourceLookupRepository } from './infrastructure/pg-resource-lookup.repository';
import { CONSOLE_API_KEY, ConsoleKeyGuard } from './api/console-key.guard';
import { AccountsController } from './api/accounts.controller';
import { AppsController } from './api/apps.controller';
import { GrantsController } from './api/grants.controller';
import { MandatesController } from './api/mandates.controller';
import { OrganizationsController } from './api/organizations.controller';
import { PathResourcesGuard } from './api/path-resources.guard';
import { PeriodsController } from './api/periods.controller';
import { JournalModule } from '../journal';
import { WebhookEndpointEnableController, WebhookEndpointsController, WebhookEndpointToolsController } from './api/webhook-endpoints.controller';
import { WebhooksModule } from '../webhooks';
import { SandboxProjectsController } from './api/sandbox-projects.controller';
import { ConsentCoreModule } from '../auth/consent';
import { OAuthClientsController } from './api/oauth-clients.controller';
import { ConsoleReadsController } from './api/console-reads.controller';
import { ConsoleReadService } from './application/console-read.service';
import { OwnerPasswordService } from './application/owner-password.service';
import { UsersController } from './api/users.controller';
import { DevelopersController } from './api/developers.controller';
import { DevelopersCoreModule } from '../developers';
import { EntryAttachmentsSqlModule } from '../attachments';

/** Controllers of the operator API, all under /console/v1 (CONTRACT §10). */
const CONSOLE_CONTROLLERS: Type[] = [
  SandboxProjectsController,
  OrganizationsController,
  AccountsController,
  AppsController,
  GrantsController,
  MandatesController,
  PeriodsController,
  WebhookEndpointsController,
  WebhookEndpointEnableController,
  WebhookEndpointToolsController,
  OAuthClientsController,
  ConsoleReadsController,
  UsersController,
  DevelopersController,
];

/** The operator API on its own listener, guarded by the console API key. */
@Module({})
export class ConsoleModule implements NestModule {
  static forRoot(apiKey: string): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [
        OrganizationsModule,
        AppsModule,
        GrantsModule,
        SandboxModule,
        JournalModule,
        EntryAttachmentsSqlModule,
        WebhooksModule,
        ConsentCoreModule,
        DevelopersCoreModule,
      ],
      controllers: CONSOLE_CONTROLLERS as never,
      providers: [
        { provide: CONSOLE_API_KEY, useValue: apiKey },
        { provide: APP_GUARD, useClass: ConsoleKeyGuard },
        PathResourcesGuard,
        ResourceLookupService,
        { provide: ResourceLookupRepository, useClass: PgResourceLookupRepository },
        ConsoleReadService,
        OwnerPasswordService,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // bound to the known routes only: routing comes first (CONTRACT §3 step 0)
    if (CONSOLE_CONTROLLERS.length > 0) consumer.apply(ConsoleJsonBodyMiddleware).forRoutes(...CONSOLE_CONTROLLERS);
  }
}

import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule, type Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { JsonBodyMiddleware } from './shared/http/json-body.middleware';
import { APP_GUARD, ModulesContainer } from '@nestjs/core';
import { routesTakingBody } from './shared/http/body-routes';
import { OwnerPagesModule } from './modules/owner-pages';
import { AuthModule, ConsentPagesModule, GrantEventsModule, GrantsApiModule, PartnerAuthGuard } from './modules/auth';
import { HealthModule } from './modules/health';
import { JournalApiModule } from './modules/journal';
import { IdempotencyModule } from './modules/idempotency';
import { IdempotencyPurgeModule } from './modules/idempotency';
import { ReceiptsApiModule } from './modules/receipts';
import { ProductsModule } from './modules/products';
import { EventsFeedApiModule, WebhookDispatchModule } from './modules/webhooks';
import { RateLimitModule } from './modules/rate-limit';
import { DevelopersModule } from './modules/developers';
import { AttachmentsApiModule } from './modules/attachments';
import { EmptyStatisticsWatch } from './shared/database/empty-statistics-watch';
import { WebPurgeModule } from './shared/web';

/** The partner listener: health, the partner API under both base paths. */
@Module({})
export class PartnerAppModule implements NestModule {
  // logging is set up per listener in bootstrap.ts (src/shared/logging)
  static forRoot(core: DynamicModule, _logLevel?: string, _logStream?: DestinationStream): DynamicModule {
    return {
      module: PartnerAppModule,
      imports: [
        core,
        HealthModule,
        AuthModule,
        IdempotencyModule,
        IdempotencyPurgeModule,
        ReceiptsApiModule,
        EventsFeedApiModule,
        JournalApiModule,
        AttachmentsApiModule,
        ProductsModule,
        GrantsApiModule,
        GrantEventsModule,
        WebhookDispatchModule,
        ConsentPagesModule,
        OwnerPagesModule,
        WebPurgeModule,
        RateLimitModule,
        DevelopersModule,
      ],
      // EmptyStatisticsWatch: on the partner listener only, so once per instance
      providers: [{ provide: APP_GUARD, useClass: PartnerAuthGuard }, EmptyStatisticsWatch],
    };
  }

  constructor(private readonly modules: ModulesContainer) {}

  configure(consumer: MiddlewareConsumer): void {
    // bound to the known routes only (routing comes first, CONTRACT §3 step 0): every handler of this
    // listener that takes a @Body(), read off the controllers' metadata (body-routes.ts)
    const controllers = [...this.modules.values()].flatMap((m) => [...m.controllers.values()].map((w) => w.metatype as Type));
    const routes = routesTakingBody(controllers);
    if (routes.length > 0) consumer.apply(JsonBodyMiddleware).forRoutes(...routes);
  }
}

/** The console listener. */
@Module({})
export class ConsoleAppModule {
  static forRoot(core: DynamicModule, consoleModule: DynamicModule, _logLevel?: string, _logStream?: DestinationStream): DynamicModule {
    return {
      module: ConsoleAppModule,
      imports: [core, consoleModule],
    };
  }
}

import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { HostResolver } from '../../shared/domain/host-resolver';
import { OtherInstancesNotice } from './application/other-instances-notice';
import { WEBHOOK_DISPATCH_OPTIONS, WebhookDispatcher, type WebhookDispatchOptions } from './application/webhook-dispatcher';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { WebhookRetention } from './application/webhook-retention';
import { WebhookDeliveryReadRepository } from './domain/webhook-delivery-read.repository';
import { WebhookRepository } from './domain/webhook.repository';
import { WebhookSender } from './domain/webhook-sender';
import { HttpWebhookSender } from './infrastructure/http-webhook-sender';
import { PgWebhookDeliveryReadRepository } from './infrastructure/pg-webhook-delivery-read.repository';
import { PgWebhookRepository } from './infrastructure/pg-webhook.repository';

/** Production timing: every knob at its default (webhook-dispatcher.ts) but the configured concurrency per endpoint. */
const dispatchOptions = (config: AppConfig): WebhookDispatchOptions => ({ perEndpointConcurrency: config.webhookEndpointConcurrency });

/** Endpoint registration, and the deliveries' read and resend (console). */
@Module({
  providers: [
    WebhookEndpointsService,
    { provide: WebhookRepository, useClass: PgWebhookRepository },
    { provide: WebhookDeliveryReadRepository, useClass: PgWebhookDeliveryReadRepository },
  ],
  exports: [WebhookEndpointsService, WebhookRepository, WebhookDeliveryReadRepository],
})
export class WebhooksModule {}

/** The dispatcher, run by the partner listener of every instance. */
@Module({
  imports: [WebhooksModule],
  providers: [
    WebhookDispatcher,
    OtherInstancesNotice,
    WebhookRetention,
    { provide: WEBHOOK_DISPATCH_OPTIONS, useFactory: dispatchOptions, inject: [APP_CONFIG] },
    {
      provide: WebhookSender,
      useFactory: (config: AppConfig, resolver: HostResolver) =>
        new HttpWebhookSender({ allowedNetworks: config.webhookAllowedNetworks, resolve: (host) => resolver.resolve(host) }),
      inject: [APP_CONFIG, HostResolver],
    },
  ],
  exports: [WebhookDispatcher, WebhookRetention, WebhookSender],
})
export class WebhookDispatchModule {}

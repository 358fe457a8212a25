import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { WEBHOOK_DISPATCH_OPTIONS, WebhookDispatcher, type WebhookDispatchOptions } from './application/webhook-dispatcher';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { WebhookDeliveryReadRepository } from './domain/webhook-delivery-read.repository';
import { WebhookRepository } from './domain/webhook.repository';
import { WebhookSender } from './domain/webhook-sender';
import { HttpWebhookSender } from './infrastructure/http-webhook-sender';
import { TypeOrmWebhookDeliveryReadRepository } from './infrastructure/typeorm-webhook-delivery-read.repository';
import { TypeOrmWebhookRepository } from './infrastructure/typeorm-webhook.repository';

/** Production timing: every knob at its default (webhook-dispatcher.ts). */
const DEFAULT_DISPATCH_OPTIONS: WebhookDispatchOptions = {};

/** Endpoint registration, and the deliveries' read and resend (console). */
@Module({
  providers: [
    WebhookEndpointsService,
    { provide: WebhookRepository, useClass: TypeOrmWebhookRepository },
    { provide: WebhookDeliveryReadRepository, useClass: TypeOrmWebhookDeliveryReadRepository },
  ],
  exports: [WebhookEndpointsService, WebhookRepository, WebhookDeliveryReadRepository],
})
export class WebhooksModule {}

/** The dispatcher, run by the partner listener of every instance. */
@Module({
  imports: [WebhooksModule],
  providers: [
    WebhookDispatcher,
    { provide: WEBHOOK_DISPATCH_OPTIONS, useValue: DEFAULT_DISPATCH_OPTIONS },
    {
      provide: WebhookSender,
      useFactory: (config: AppConfig) => new HttpWebhookSender({ allowPrivateNetworks: config.webhookAllowPrivateNetworks }),
      inject: [APP_CONFIG],
    },
  ],
  exports: [WebhookDispatcher, WebhookSender],
})
export class WebhookDispatchModule {}

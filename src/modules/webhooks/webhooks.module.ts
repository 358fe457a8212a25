import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { WebhookDeliveryReadRepository } from './domain/webhook-delivery-read.repository';
import { WebhookRepository } from './domain/webhook.repository';
import { TypeOrmWebhookDeliveryReadRepository } from './infrastructure/typeorm-webhook-delivery-read.repository';
import { TypeOrmWebhookRepository } from './infrastructure/typeorm-webhook.repository';

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
@Module({ imports: [WebhooksModule], providers: [WebhookDispatcher], exports: [WebhookDispatcher] })
export class WebhookDispatchModule {}

import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { WebhookRepository } from './domain/webhook.repository';
import { TypeOrmWebhookRepository } from './infrastructure/typeorm-webhook.repository';

/** Endpoint registration (console). */
@Module({
  providers: [WebhookEndpointsService, { provide: WebhookRepository, useClass: TypeOrmWebhookRepository }],
  exports: [WebhookEndpointsService, WebhookRepository],
})
export class WebhooksModule {}

/** The dispatcher, run by the partner listener of every instance. */
@Module({ imports: [WebhooksModule], providers: [WebhookDispatcher], exports: [WebhookDispatcher] })
export class WebhookDispatchModule {}

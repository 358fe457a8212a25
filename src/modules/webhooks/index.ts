// The webhooks module's public surface: other modules and the composition root import only this file.
export { WebhookDispatchModule, WebhooksModule } from './webhooks.module';
export { WebhookDispatcher } from './application/webhook-dispatcher';
export { WebhookEndpointsService } from './application/webhook-endpoints.service';
export { WebhookRetention } from './application/webhook-retention';
export { type DeliveryDetailView, WebhookDeliveryReadRepository, type WebhookDeliveryView } from './domain/webhook-delivery-read.repository';
export { ATTEMPT_FAILURES, type AttemptFailure } from './domain/attempt-failure';
export { EventsFeedApiModule } from './events-feed.module';
export { type HostScope, MAX_ENDPOINTS_PER_APP_ENVIRONMENT, TooManyEndpointsError, TooManyEndpointsOnHostError } from './domain/endpoint-limits';
export { SECRET_ROTATIONS, SecretRotationsExhaustedError } from './domain/webhook-secret';
export { WEBHOOKS_FACTS } from './facts';

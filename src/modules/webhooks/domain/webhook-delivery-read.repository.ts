/** What the operator sees of a webhook delivery (CONTRACT §10): never a secret. */
export interface WebhookDeliveryView {
  event_id: string;
  endpoint_id: string;
  operation_id: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  /**
   * The last attempt's status code; null before any answer, and null when the address that answered would
   * be refused now (a private address without WEBHOOK_ALLOW_PRIVATE_NETWORKS: issue 35).
   */
  last_status_code: number | null;
}

/** Port (the console's read and resend): an app's deliveries. Ids are lower-case uuids. */
export abstract class WebhookDeliveryReadRepository {
  /** The app's latest deliveries, newest event first. */
  abstract deliveries(appId: string, limit: number): Promise<WebhookDeliveryView[]>;
  /**
   * Makes the delivery due now (again, if it was delivered or given up), so that a dispatcher sends one
   * more attempt with the same event (same webhook-id and body). Null when there is no such delivery.
   */
  abstract resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null>;
}

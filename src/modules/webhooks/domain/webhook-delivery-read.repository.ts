import type { Environment } from '../../../shared/domain/caller-context';
import type { AttemptFailure } from './attempt-failure';

/** What the operator sees of a webhook delivery (CONTRACT §10): never a secret. */
export interface WebhookDeliveryView {
  event_id: string;
  endpoint_id: string;
  /** null for an event that is no operation's (`webhook.test`, `grant.revoked`, `grant.expiring`) */
  operation_id: string | null;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  /**
   * The last attempt's status code; null before any answer, and null when the address that answered would
   * be refused now (an address outside WEBHOOK_ALLOWED_NETWORKS' reach: issue 35).
   */
  last_status_code: number | null;
}

/** One attempt of a delivery (CONTRACT §15 "What happened to a delivery"). */
export interface DeliveryAttemptView {
  attempt: number;
  at: Date;
  /** the receiver's HTTP status, or null when there was no answer */
  statusCode: number | null;
  /** null for a 2xx */
  failure: AttemptFailure | null;
  durationMs: number;
}

/** A delivery with its attempts and what comes next, for the developer console. */
export interface DeliveryDetailView extends WebhookDeliveryView {
  environment: Environment;
  eventType: string;
  /** when the next attempt is due; null once delivered or given up */
  nextAttemptAt: Date | null;
  endpointDisabled: boolean;
  attemptLog: DeliveryAttemptView[];
}

/** Port (the console's read and resend): an app's deliveries. Ids are lower-case uuids. */
export abstract class WebhookDeliveryReadRepository {
  /** The app's latest deliveries, newest event first. */
  abstract deliveries(appId: string, limit: number): Promise<WebhookDeliveryView[]>;
  /** The apps' latest deliveries, newest event first, with their attempts (oldest first). */
  abstract details(appIds: string[], limit: number): Promise<DeliveryDetailView[]>;
  /**
   * Makes the delivery due now (again, if it was delivered or given up), so that a dispatcher sends one
   * more attempt with the same event (same webhook-id and body). Of a recovered event, the latest
   * delivery (CONTRACT §9 Recover). Null when there is no such delivery.
   */
  abstract resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null>;
}

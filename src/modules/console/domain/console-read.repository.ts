/** What the operator sees of an organization, a grant and a webhook delivery (CONTRACT §10): never a secret. */
export interface OrganizationView {
  id: string;
  name: string;
  accounts: Array<{ id: string; number: string; name: string; active: boolean }>;
  tax_codes: Array<{ id: string; code: string; rate_basis_points: number }>;
  owners: Array<{ user_id: string; email: string }>;
}

export interface GrantView {
  id: string;
  app_id: string;
  scopes: string[];
  account_ids: string[];
  expires_at: string;
  revoked: boolean;
}

export interface WebhookDeliveryView {
  event_id: string;
  endpoint_id: string;
  operation_id: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  last_status_code: number | null;
}

/** Port: the console's reads, and the resend of one delivery. Ids are lower-case uuids. */
export abstract class ConsoleReadRepository {
  abstract organization(organizationId: string): Promise<OrganizationView | null>;
  abstract grants(organizationId: string): Promise<GrantView[]>;
  /** The app's latest deliveries, newest event first. */
  abstract deliveries(appId: string, limit: number): Promise<WebhookDeliveryView[]>;
  /**
   * Makes the delivery due now (again, if it was delivered or given up), so that a dispatcher sends one
   * more attempt with the same event (same webhook-id and body). Null when there is no such delivery.
   */
  abstract resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView | null>;
}

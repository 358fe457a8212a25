import { Injectable } from '@nestjs/common';
import { DomainError, NotFoundError } from '../../../shared/domain/errors';
import { isUuid } from '../../../shared/http/validation/constraints';
import { GrantReadRepository, type GrantView } from '../../auth/grants';
import { OrganizationReadRepository, type OrganizationView } from '../../auth/organizations';
import { WebhookDeliveryReadRepository, type WebhookDeliveryView } from '../../webhooks';

export const DEFAULT_DELIVERY_LIMIT = 20;
export const MAX_DELIVERY_LIMIT = 100;

/** Console reads (CONTRACT §10): what an operator needs to answer a partner without SQL, through the owners' read ports. */
@Injectable()
export class ConsoleReadService {
  constructor(
    private readonly organizations: OrganizationReadRepository,
    private readonly grantReads: GrantReadRepository,
    private readonly deliveryReads: WebhookDeliveryReadRepository,
  ) {}

  async organization(organizationId: string): Promise<OrganizationView> {
    const org = await this.organizations.organization(organizationId);
    if (!org) throw new NotFoundError('organization');
    return org;
  }

  grants(organizationId: string): Promise<GrantView[]> {
    return this.grantReads.grants(organizationId);
  }

  /** `limit`: the raw query value; 1–100, default 20. */
  deliveries(appId: string, limit: unknown): Promise<WebhookDeliveryView[]> {
    return this.deliveryReads.deliveries(appId, deliveryLimit(limit));
  }

  async resend(eventId: string, endpointId: string): Promise<WebhookDeliveryView> {
    const resent = isUuid(eventId) && isUuid(endpointId) ? await this.deliveryReads.resend(eventId.toLowerCase(), endpointId.toLowerCase()) : null;
    if (!resent) throw new NotFoundError('webhook delivery');
    return resent;
  }
}

export function deliveryLimit(raw: unknown): number {
  if (raw === undefined) return DEFAULT_DELIVERY_LIMIT;
  const n = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= MAX_DELIVERY_LIMIT)) {
    throw new DomainError('invalid_input', `limit must be an integer from 1 to ${MAX_DELIVERY_LIMIT}`);
  }
  return n;
}

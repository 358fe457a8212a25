import { environment, object, type Schema, uuid } from '../../../../shared/http/openapi/common';
import { SCOPES } from '../../../../shared/domain/scopes';
import { GRANT_END_REASONS } from '../domain/grant-events';

/** `GET {base}/grant` in the partner document (CONTRACT §18): its scopes are the registry's. */
export const TOKEN_GRANT_SCHEMAS: Record<string, Schema> = {
  TokenGrant: object(
    {
      environment,
      organization_id: uuid,
      grant_id: { type: ['string', 'null'], format: 'uuid', description: 'null in the sandbox' },
      scopes: { type: 'array', items: { type: 'string', enum: SCOPES as string[] } },
      account_ids: { type: 'array', items: uuid, description: 'the active accounts this token may use, as `GET /accounts` lists them' },
      expires_at: { type: ['string', 'null'], format: 'date-time', description: 'null in the sandbox' },
      mandate: { type: 'boolean', description: 'a posting mandate is in force (always in the sandbox)' },
    },
    undefined,
    { description: 'What this token may do (CONTRACT §18).' },
  ),
};

/**
 * The `data` of the grant webhooks (CONTRACT §18), which the document's webhooks part and the events feed
 * name; declared with `GET /grant`, the grants module's one partner route.
 */
export const GRANT_EVENT_SCHEMAS: Record<string, Schema> = {
  GrantRevokedData: object(
    {
      grant_id: uuid,
      organization_id: uuid,
      reason: { type: 'string', enum: [...GRANT_END_REASONS] },
      at: { type: 'string', format: 'date-time', description: 'when the grant stopped being in force (for `expired`, its expiry)' },
    },
    undefined,
    { description: 'What `grant.revoked` says (CONTRACT §18).' },
  ),
  GrantExpiringData: object({ grant_id: uuid, organization_id: uuid, expires_at: { type: 'string', format: 'date-time' } }, undefined, {
    description: 'What `grant.expiring` says (CONTRACT §18).',
  }),
};

import { environment, object, type Schema, uuid } from '../../../../shared/http/openapi/common';
import { SCOPES } from '../../../../shared/domain/scopes';

/** `GET {base}/grant` in the partner document (CONTRACT §18): its scopes are the registry's. */
export const TOKEN_GRANT_SCHEMAS: Record<string, Schema> = {
  TokenGrant: object(
    {
      environment,
      organization_id: uuid,
      grant_id: { type: ['string', 'null'], format: 'uuid', description: 'null in the sandbox' },
      scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
      account_ids: { type: 'array', items: uuid, description: 'the active accounts this token may use, as `GET /accounts` lists them' },
      expires_at: { type: ['string', 'null'], format: 'date-time', description: 'null in the sandbox' },
      mandate: { type: 'boolean', description: 'a posting mandate is in force (always in the sandbox)' },
    },
    undefined,
    { description: 'What this token may do (CONTRACT §18).' },
  ),
};

import { object, ref, type Schema, uuid } from '../../../shared/http/openapi/common';
import { SCOPES } from '../../../shared/domain/scopes';

// The console's result schemas (CONTRACT §10): exactly the members listed.

const idOnly = object({ id: uuid });
const text: Schema = { type: 'string' };
const dateTime: Schema = { type: 'string', format: 'date-time' };

export const CONSOLE_SCHEMAS = {
  Created: idOnly,
  SandboxProject: object({
    project_id: uuid,
    organization_id: uuid,
    app_id: uuid,
    generation_id: uuid,
    token: { type: 'string', pattern: '^hsk_[0-9A-Za-z]{46}$', description: 'shown once' },
    base_url: { type: 'string', format: 'uri' },
    accounts: { type: 'array', items: object({ id: uuid, number: text, name: text }) },
    tax_codes: { type: 'array', items: object({ id: uuid, code: text }) },
  }),
  SandboxGeneration: object({ generation_id: uuid, token: { type: 'string', pattern: '^hsk_[0-9A-Za-z]{46}$' } }),
  AccountDeactivated: object({ id: uuid, active: { const: false } }),
  OwnerEnrolled: object({
    user_id: uuid,
    totp_secret: { type: ['string', 'null'], description: 'base32, shown once; null when the email was already enrolled' },
  }),
  PasswordSet: object({ user_id: uuid, password_set: { const: true } }),
  DeveloperCreated: object({
    id: uuid,
    email: { type: 'string' },
    totp_secret: { type: 'string', pattern: '^[A-Z2-7]+$', description: 'base32, shown once' },
    totp_uri: { type: 'string', pattern: '^otpauth://totp/', description: 'the same secret as an otpauth:// URI for authenticator apps, shown once' },
    demo_organization_id: {
      ...uuid,
      description: "the developer's demo company (CONTRACT §15): a production organization marked demo, the developer its only owner",
    },
  }),
  OAuthClient: object({
    client_id: uuid,
    client_secret: { type: 'string', pattern: '^hcs_[0-9A-Za-z]{40}$', description: 'shown once' },
    redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' } },
  }),
  AppRevision: object({ id: uuid, number: { type: 'integer', minimum: 1 } }),
  AppRevisionApproved: object({ id: uuid, number: { type: 'integer', minimum: 1 }, approved: { const: true } }),
  PublisherVerified: object({ app_id: uuid, publisher_verified: { const: true } }),
  GrantCreated: object({ id: uuid, expires_at: dateTime }),
  Revoked: object({ id: uuid, revoked: { const: true } }),
  TokenIssued: object({
    token: { type: 'string', pattern: '^hat_[0-9A-Za-z]{46}$', description: 'shown once' },
    base_url: { type: 'string', format: 'uri' },
  }),
  PeriodClosed: object({ period: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }, closed: { const: true } }),
  PendingRevision: object({
    app_id: uuid,
    app_name: text,
    revision_id: uuid,
    number: { type: 'integer', minimum: 1 },
    submitted_at: dateTime,
  }),
  WebhookEndpointCreated: object({ id: uuid, secret: { type: 'string', pattern: '^whsec_', description: 'shown once' } }),
  Organization: object({
    id: uuid,
    name: text,
    demo: { type: 'boolean', description: "a developer's demo company (CONTRACT §15): never a customer" },
    accounts: { type: 'array', items: object({ id: uuid, number: text, name: text, active: { type: 'boolean' } }) },
    tax_codes: { type: 'array', items: object({ id: uuid, code: text, rate_basis_points: { type: 'integer' } }) },
    owners: { type: 'array', items: object({ user_id: uuid, email: text }) },
  }),
  App: object({
    id: uuid,
    name: text,
    revisions: { type: 'array', items: object({ id: uuid, number: { type: 'integer', minimum: 1 }, approved: { type: 'boolean' } }) },
    redirect_uris: { type: 'array', items: { type: 'string' } },
    webhook_endpoints: {
      type: 'array',
      items: object({
        id: uuid,
        url: { type: 'string', format: 'uri' },
        environment: { type: 'string', enum: ['sandbox', 'production'] },
        disabled: { type: 'boolean', description: 'no 2xx for 120 h while attempts were made: nothing is sent until it is enabled again' },
      }),
    },
  }),
  WebhookEndpointEnabled: object({ id: uuid, disabled: { const: false } }),
  WebhookSecretRotated: object({
    id: uuid,
    secret: { type: 'string', pattern: '^whsec_', description: 'shown once; the previous secret signs beside it for 24 h' },
  }),
  WebhookRecovery: object({ id: uuid, events: { type: 'integer', minimum: 0, description: 'how many events are delivered to the endpoint again' } }),
  WebhookTestSent: object({ id: uuid, webhook_id: { ...uuid, description: 'the webhook-id of the webhook.test event' } }),
  Grant: object({
    id: uuid,
    app_id: uuid,
    scopes: { type: 'array', items: { type: 'string', enum: SCOPES as string[] } },
    account_ids: { type: 'array', items: uuid },
    expires_at: dateTime,
    revoked: { type: 'boolean', description: 'revoked or superseded by a newer grant' },
  }),
  WebhookDelivery: object({
    event_id: uuid,
    endpoint_id: uuid,
    operation_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: "the receipt's operation id; null for an event of no operation (webhook.test, grant.revoked, grant.expiring)",
    },
    attempts: { type: 'integer', minimum: 0 },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    last_status_code: { type: ['integer', 'null'], description: "the receiver's last HTTP status; null before the first answer" },
  }),
} satisfies Record<string, Schema>;

export type ConsoleSchemaName = keyof typeof CONSOLE_SCHEMAS;

/** A call whose success body is one schema of CONSOLE_SCHEMAS (for @ConsoleOperation). */
export const resultOf = (name: ConsoleSchemaName) => ({ result: ref(name), schemas: { [name]: CONSOLE_SCHEMAS[name] } });
/** A call whose success body is a list of one schema of CONSOLE_SCHEMAS. */
export const listOf = (name: ConsoleSchemaName) => ({ result: { type: 'array', items: ref(name) }, schemas: { [name]: CONSOLE_SCHEMAS[name] } });

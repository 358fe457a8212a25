import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SCOPES } from '../../domain/scopes';
import {
  closeRequestSchemas,
  HEADERS,
  jsonResponse,
  object,
  PROBLEM_SCHEMA,
  problemResponses,
  ref,
  type Schema,
  uuid,
} from './common';

export const CONSOLE_BASE = '/console/v1';
/** Served on the console listener without the key (CONTRACT §1, §13). */
export const CONSOLE_DOCUMENT_PATH = `${CONSOLE_BASE}/openapi.json`;

const PLAIN = { rateLimit: false };
const idOnly = object({ id: uuid });
const text: Schema = { type: 'string' };
const dateTime: Schema = { type: 'string', format: 'date-time' };

const SCHEMAS: Record<string, Schema> = {
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
    demo_organization_id: { ...uuid, description: "the developer's demo company (CONTRACT §15): a production organization marked demo, the developer its only owner" },
  }),
  OAuthClient: object({
    client_id: uuid,
    client_secret: { type: 'string', pattern: '^hcs_[0-9A-Za-z]{40}$', description: 'shown once' },
    redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' } },
  }),
  AppRevision: object({ id: uuid, number: { type: 'integer', minimum: 1 } }),
  AppRevisionApproved: object({ id: uuid, number: { type: 'integer', minimum: 1 }, approved: { const: true } }),
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
    scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
    account_ids: { type: 'array', items: uuid },
    expires_at: dateTime,
    revoked: { type: 'boolean', description: 'revoked or superseded by a newer grant' },
  }),
  WebhookDelivery: object({
    event_id: uuid,
    endpoint_id: uuid,
    operation_id: { type: ['string', 'null'], format: 'uuid', description: "the receipt's operation id; null for an event of no operation (webhook.test, grant.revoked, grant.expiring)" },
    attempts: { type: 'integer', minimum: 0 },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    last_status_code: { type: ['integer', 'null'], description: "the receiver's last HTTP status; null before the first answer" },
  }),
  Problem: PROBLEM_SCHEMA,
};

const TRANSPORT = ['invalid_input', 'payload_too_large', 'unsupported_media_type'];
const COMMON = ['missing_token', 'invalid_token', 'internal_error', 'service_unavailable'];

interface ConsoleOperation {
  method: 'get' | 'post';
  /** relative to the server, with the path parameter names the controllers use */
  path: string;
  operationId: string;
  summary: string;
  status: number;
  schema: Schema;
  errors: string[];
  /** for a call whose controller is built elsewhere: its request body */
  requestBody?: Schema;
  /** a body of `{}` may be left out */
  emptyBody?: boolean;
  parameters?: unknown[];
}

const OPERATIONS: ConsoleOperation[] = [
  { method: 'post', path: '/sandbox/projects', operationId: 'createSandboxProject', summary: 'Provision a sandbox project', status: 201, schema: ref('SandboxProject'), errors: TRANSPORT, emptyBody: true },
  { method: 'post', path: '/sandbox/projects/{projectId}/generations', operationId: 'createSandboxGeneration', summary: "Supersede a sandbox project's generation", status: 201, schema: ref('SandboxGeneration'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/organizations', operationId: 'createOrganization', summary: 'Create a production organization', status: 201, schema: ref('Created'), errors: TRANSPORT },
  { method: 'get', path: '/organizations/{organizationId}', operationId: 'getOrganization', summary: 'An organization with its accounts, tax codes and owners', status: 200, schema: ref('Organization'), errors: ['not_found'] },
  { method: 'post', path: '/organizations/{organizationId}/accounts', operationId: 'createAccount', summary: 'Add an account', status: 201, schema: ref('Created'), errors: [...TRANSPORT, 'not_found', 'resource_conflict'] },
  { method: 'post', path: '/accounts/{accountId}/deactivate', operationId: 'deactivateAccount', summary: 'Deactivate an account', status: 200, schema: ref('AccountDeactivated'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/organizations/{organizationId}/tax-codes', operationId: 'createTaxCode', summary: 'Add a tax code', status: 201, schema: ref('Created'), errors: [...TRANSPORT, 'not_found', 'resource_conflict'] },
  { method: 'post', path: '/organizations/{organizationId}/owners', operationId: 'enrolOwner', summary: 'Enrol an owner (answers the TOTP secret once)', status: 201, schema: ref('OwnerEnrolled'), errors: [...TRANSPORT, 'not_found', 'resource_conflict'] },
  { method: 'get', path: '/organizations/{organizationId}/grants', operationId: 'listGrants', summary: "The organization's customer grants", status: 200, schema: { type: 'array', items: ref('Grant') }, errors: ['not_found'] },
  { method: 'post', path: '/organizations/{organizationId}/grants', operationId: 'createGrant', summary: 'Give a customer grant (owner aal2)', status: 201, schema: ref('GrantCreated'), errors: [...TRANSPORT, 'not_found', 'app_not_approved', 'resource_conflict', 'aal2_required', 'rate_limited'] },
  { method: 'post', path: '/organizations/{organizationId}/mandates', operationId: 'createMandate', summary: 'Give a posting mandate (owner aal2)', status: 201, schema: ref('Created'), errors: [...TRANSPORT, 'not_found', 'app_not_approved', 'aal2_required', 'rate_limited'] },
  { method: 'post', path: '/organizations/{organizationId}/periods/{period}/close', operationId: 'closePeriod', summary: 'Close a period (YYYY-MM)', status: 200, schema: ref('PeriodClosed'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/apps', operationId: 'createApp', summary: 'Create an app', status: 201, schema: ref('Created'), errors: TRANSPORT },
  { method: 'get', path: '/apps/{appId}', operationId: 'getApp', summary: 'An app with its revisions, OAuth redirect URIs and webhook endpoints', status: 200, schema: ref('App'), errors: ['not_found'] },
  { method: 'post', path: '/apps/{appId}/oauth', operationId: 'setOAuthClient', summary: "Register the app's OAuth redirect URIs and issue a client secret", status: 200, schema: ref('OAuthClient'), errors: [...TRANSPORT, 'not_found'] },
  { method: 'post', path: '/apps/{appId}/revisions', operationId: 'createAppRevision', summary: 'Create an app revision', status: 201, schema: ref('AppRevision'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/apps/{appId}/revisions/{revisionId}/approve', operationId: 'approveAppRevision', summary: 'Approve an app revision', status: 200, schema: ref('AppRevisionApproved'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/apps/{appId}/webhook-endpoints', operationId: 'createWebhookEndpoint', summary: 'Register a webhook endpoint (answers its secret once); 409 when the app and environment have the most endpoints allowed', status: 201, schema: ref('WebhookEndpointCreated'), errors: [...TRANSPORT, 'not_found', 'resource_conflict'] },
  {
    method: 'post',
    path: '/webhook-endpoints/{endpointId}/enable',
    operationId: 'enableWebhookEndpoint',
    summary: 'Enable a webhook endpoint again; its pending deliveries become due at once',
    status: 200,
    schema: ref('WebhookEndpointEnabled'),
    errors: [...TRANSPORT, 'not_found'],
    emptyBody: true,
  },
  {
    method: 'post',
    path: '/webhook-endpoints/{webhookEndpointId}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Issue a new signing secret (answered once); for 24 h every delivery carries the new and the previous signature',
    status: 200,
    schema: ref('WebhookSecretRotated'),
    errors: [...TRANSPORT, 'not_found'],
    emptyBody: true,
  },
  {
    method: 'post',
    path: '/webhook-endpoints/{webhookEndpointId}/recover',
    operationId: 'recoverWebhookEndpoint',
    summary: "Deliver again every event of the endpoint's app and environment created since a time (within the retention)",
    status: 202,
    schema: ref('WebhookRecovery'),
    errors: [...TRANSPORT, 'not_found', 'resource_conflict'],
  },
  {
    method: 'post',
    path: '/webhook-endpoints/{webhookEndpointId}/test',
    operationId: 'sendWebhookTest',
    summary: 'Send one webhook.test event to this endpoint only (never in the events feed)',
    status: 202,
    schema: ref('WebhookTestSent'),
    errors: [...TRANSPORT, 'not_found'],
    emptyBody: true,
  },
  {
    method: 'get',
    path: '/apps/{appId}/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "The app's latest webhook deliveries, newest first",
    status: 200,
    schema: { type: 'array', items: ref('WebhookDelivery') },
    errors: ['invalid_input', 'not_found'],
    parameters: [
      { name: 'limit', in: 'query', required: false, description: 'how many (1–100)', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    ],
  },
  {
    method: 'post',
    path: '/webhook-deliveries/{eventId}/{endpointId}/resend',
    operationId: 'resendWebhookDelivery',
    summary: 'One more attempt at once (same webhook-id and body)',
    status: 202,
    schema: ref('WebhookDelivery'),
    errors: [...TRANSPORT, 'not_found'],
    emptyBody: true,
  },
  {
    method: 'get',
    path: '/revisions',
    operationId: 'listPendingRevisions',
    summary: 'Revisions submitted for review and not yet approved, oldest first',
    status: 200,
    schema: { type: 'array', items: ref('PendingRevision') },
    errors: ['invalid_input'],
    parameters: [{ name: 'pending', in: 'query', required: true, description: 'must be true', schema: { const: 'true' } }],
  },
  { method: 'post', path: '/grants/{grantId}/revoke', operationId: 'revokeGrant', summary: 'Revoke a grant', status: 200, schema: ref('Revoked'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/grants/{grantId}/tokens', operationId: 'issueToken', summary: 'Issue a production access token under a grant', status: 201, schema: ref('TokenIssued'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
  { method: 'post', path: '/users/{userId}/password', operationId: 'setOwnerPassword', summary: "Set or replace an owner's password (ends the owner's consent sessions)", status: 200, schema: ref('PasswordSet'), errors: [...TRANSPORT, 'not_found', 'resource_conflict'] },
  {
    method: 'post',
    path: '/developers',
    operationId: 'createDeveloper',
    summary: 'Create a developer account, also while DEVELOPER_SIGNUP=closed (answers the TOTP secret once)',
    status: 201,
    schema: ref('DeveloperCreated'),
    errors: [...TRANSPORT, 'resource_conflict'],
  },
  { method: 'post', path: '/mandates/{mandateId}/revoke', operationId: 'revokeMandate', summary: 'Revoke a posting mandate', status: 200, schema: ref('Revoked'), errors: [...TRANSPORT, 'not_found'], emptyBody: true },
];

const PARAMETER_WORDS: Record<string, string> = {
  period: 'a calendar month, YYYY-MM',
};

/**
 * The console (operator) API's OpenAPI 3.1 document (CONTRACT §10, §13). Calls the scan does not find
 * (built on another listener's branch) are described from the table all the same.
 */
export function createConsoleDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Partner API console')
    .setDescription(
      'The operator API on its own listener: organizations, accounts, apps, grants, tokens, mandates, periods and webhooks. ' +
        'Every call carries `Authorization: Bearer <CONSOLE_API_KEY>`. No read returns a secret, token or TOTP secret.',
    )
    .setVersion('v1')
    .addServer(CONSOLE_BASE, 'Console listener')
    .addSecurity('consoleKey', { type: 'http', scheme: 'bearer', description: 'The CONSOLE_API_KEY (opaque).' })
    .addSecurityRequirements('consoleKey')
    .addTag('console', 'Operator calls')
    .build();
  config.info.license = { name: 'Proprietary' };
  const scanned = SwaggerModule.createDocument(app, config);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const generated = (scanned.paths[CONSOLE_BASE + op.path] as Record<string, Record<string, unknown>> | undefined)?.[op.method];
    const pathParameters = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      description: PARAMETER_WORDS[name] ?? `a uuid`,
      schema: name === 'period' ? { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$' } : uuid,
    }));
    const body = op.requestBody
      ? { required: true, content: { 'application/json': { schema: op.requestBody } } }
      : (generated?.requestBody as Record<string, unknown> | undefined);
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        tags: ['console'],
        parameters: [...pathParameters, ...(op.parameters ?? [])],
        ...(op.method === 'post' && body ? { requestBody: { ...body, required: !op.emptyBody } } : {}),
        responses: {
          [String(op.status)]: jsonResponse(op.summary, op.schema, op.status, PLAIN),
          ...problemResponses([...op.errors, ...COMMON], PLAIN),
        },
      },
    };
    if (!(paths[op.path][op.method] as Record<string, unknown>).parameters || pathParameters.length + (op.parameters?.length ?? 0) === 0) {
      delete (paths[op.path][op.method] as Record<string, unknown>).parameters;
    }
  }
  const document: OpenAPIObject = {
    ...scanned,
    paths: paths as OpenAPIObject['paths'],
    components: {
      ...scanned.components,
      schemas: { ...scanned.components?.schemas, ...SCHEMAS } as never,
      headers: { 'X-Request-Id': HEADERS['X-Request-Id'], 'Retry-After': HEADERS['Retry-After'], 'WWW-Authenticate': HEADERS['WWW-Authenticate'] } as never,
    },
  };
  const requestSchemas = Object.keys(scanned.components?.schemas ?? {});
  closeRequestSchemas(document, requestSchemas);
  const schemas = document.components!.schemas as Record<string, Schema>;
  if (schemas.EmptyRequestDto) schemas.EmptyRequestDto.description = 'No fields: `{}` (a bodiless POST counts as `{}`).';
  return document;
}

/** Scanned console routes the table does not describe: a test keeps the table complete. */
export function undescribedConsoleRoutes(app: INestApplication): string[] {
  const scanned = SwaggerModule.createDocument(app, new DocumentBuilder().build());
  const described = new Set(OPERATIONS.map((op) => `${op.method} ${CONSOLE_BASE}${op.path}`));
  // routes outside the console base (e.g. a metrics endpoint) are not part of the console API
  return Object.entries(scanned.paths).filter(([path]) => path.startsWith(`${CONSOLE_BASE}/`)).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method} ${path}`)
      .filter((route) => !described.has(route)),
  );
}

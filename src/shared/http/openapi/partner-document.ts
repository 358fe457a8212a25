import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SCOPES, scopeOpenApiWords } from '../../domain/scopes';
import { PRODUCTION_BASE, SANDBOX_BASE } from '../partner-paths';
import { ATTACHMENT_MEDIA_TYPES } from '../../domain/attachment-media-types';

const ATTACHMENT_TYPES = Object.keys(ATTACHMENT_MEDIA_TYPES);
import {
  closeRequestSchemas,
  HEADERS,
  jsonResponse,
  object,
  PROBLEM_SCHEMA,
  problemResponses,
  ref,
  responseHeaders,
  type Responses,
  type Schema,
  uuid,
} from './common';

const environment: Schema = { type: 'string', enum: ['sandbox', 'production'] };
const RATE = { rateLimit: true };

/**
 * The events an app's endpoints and feed carry (CONTRACT §9, §14, §18): per type, the schema of its
 * `data`, the name its body and feed schemas take, and its webhook's words. A receiver must accept
 * types it does not know (new ones may be added within v1).
 */
const EVENTS = [
  {
    type: 'operation.completed',
    name: 'OperationCompleted',
    data: ref('OperationReceipt'),
    summary: 'A write completed',
    description: 'Sent for every stored receipt, to every endpoint of the app for that environment (CONTRACT §9).',
  },
  {
    type: 'grant.revoked',
    name: 'GrantRevoked',
    data: ref('GrantRevokedData'),
    summary: 'A grant stopped being in force',
    description:
      'Production only: the grant was revoked (by the owner, the operator or `/oauth/revoke`), superseded by a new consent for ' +
      'the same organization and app, or expired; sent in the transaction that revokes or supersedes it, within 5 minutes ' +
      'after an expiry, once per grant (CONTRACT §18).',
  },
  {
    type: 'grant.expiring',
    name: 'GrantExpiring',
    data: ref('GrantExpiringData'),
    summary: 'A grant expires within 14 days',
    description:
      'Production only, once per grant: 14 days before it expires, or at once for a grant given for 14 days or less. Send the ' +
      "customer's owner through consent again (CONTRACT §11); the new grant supersedes this one (CONTRACT §18).",
  },
] as const;

/** The members of a webhook body of one event type (CONTRACT §9), which its feed event carries too (§14). */
const eventMembers = (e: (typeof EVENTS)[number]): Record<string, Schema> => ({
  type: { const: e.type },
  timestamp: { type: 'string', format: 'date-time', description: 'when the event was created' },
  data: e.data,
});

const EVENT_SCHEMAS: Record<string, Schema> = Object.fromEntries(
  EVENTS.flatMap((e) => [
    [`${e.name}Event`, object(eventMembers(e), undefined, { description: `The body of every attempt of a ${e.type} webhook (CONTRACT §9).` })],
    [
      `${e.name}FeedEvent`,
      object(
        { id: { type: 'string', description: 'the webhook-id of every delivery of this event' }, ...eventMembers(e) },
        undefined,
        { description: `A ${e.type} event of the feed: the webhook body with its webhook-id first (CONTRACT §14).` },
      ),
    ],
  ]),
);

/** `GET {base}/grant` (CONTRACT §18) lists the scopes of the registry. */
const scopeItems: Schema = { type: 'string', enum: [...SCOPES] };

const date: Schema = { type: 'string', format: 'date' };
const MINOR: Schema = { type: 'integer', minimum: 0, maximum: 99999999999999 };
/** CONTRACT §17 `<attachment>`. */
const ATTACHMENT_MEMBERS: Record<string, Schema> = {
  id: uuid,
  filename: { type: 'string', minLength: 1, maxLength: 255 },
  content_type: { type: 'string', enum: [...ATTACHMENT_TYPES] },
  size: { type: 'integer', minimum: 1 },
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  created_at: { type: 'string', format: 'date-time' },
};

/** Success bodies of CONTRACT §7: exactly the members listed, and no others. */
const SCHEMAS: Record<string, Schema> = {
  PrepareResult: object(
    {
      valid: { const: true },
      posted: { const: false },
      checked: { type: 'array', items: { type: 'string', enum: ['input', 'grant', 'references'] }, examples: [['input', 'grant', 'references']] },
      not_checked: {
        type: 'array',
        items: { type: 'string', enum: ['commit_time_period_locks', 'accounting_transaction'] },
        examples: [['commit_time_period_locks', 'accounting_transaction']],
      },
    },
    undefined,
    { description: 'The journal passed every check a prepare can make; nothing was written.' },
  ),
  ProductCreated: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: false }, environment },
    undefined,
    { description: 'First execution of POST /products.' },
  ),
  ProductReplayed: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: true } },
    undefined,
    { description: 'A replay (same Idempotency-Key, same input): the first execution\'s ids, without `environment`.' },
  ),
  // CONTRACT §13: the 201 body is closed itself (additionalProperties: false), and oneOf says which of
  // the two it is: a first execution carries `environment`, a replay does not
  ProductCreateResult: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { type: 'boolean' }, environment },
    ['id', 'created', 'operation_id', 'replayed'],
    { oneOf: [ref('ProductCreated'), ref('ProductReplayed')], description: 'The answer of POST /products: its first execution or a replay.' },
  ),
  JournalPosted: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1, description: 'gapless per organization and calendar year of posting_date' },
      operation_id: uuid,
      replayed: { const: false },
      environment,
    },
    undefined,
    { description: 'First execution of POST /journal.' },
  ),
  JournalReplayed: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1 },
      operation_id: uuid,
      replayed: { const: true },
    },
    undefined,
    { description: 'A replay (same Idempotency-Key, same input): the first execution\'s ids, without `environment`.' },
  ),
  JournalPostResult: object(
    {
      id: uuid,
      posted: { const: true },
      voucher_number: { type: 'integer', minimum: 1 },
      operation_id: uuid,
      replayed: { type: 'boolean' },
      environment,
    },
    ['id', 'posted', 'voucher_number', 'operation_id', 'replayed'],
    { oneOf: [ref('JournalPosted'), ref('JournalReplayed')], description: 'The answer of POST /journal: its first execution or a replay.' },
  ),
  OperationReceipt: object(
    {
      operation_id: uuid,
      kind: { type: 'string', enum: ['product.create', 'journal.post', 'attachment.add'] },
      status: { const: 'completed' },
      resource: object({ type: { type: 'string', enum: ['product', 'journal_entry', 'attachment'] }, id: uuid }),
      completed_at: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, millisecond precision' },
      environment,
    },
    undefined,
    { description: 'The receipt of a completed write (CONTRACT §7).' },
  ),
  GrantRevokedData: object(
    {
      grant_id: uuid,
      organization_id: uuid,
      reason: { type: 'string', enum: ['revoked', 'superseded', 'expired'] },
      at: { type: 'string', format: 'date-time', description: 'when the grant stopped being in force (for `expired`, its expiry)' },
    },
    undefined,
    { description: 'What `grant.revoked` says (CONTRACT §18).' },
  ),
  GrantExpiringData: object(
    { grant_id: uuid, organization_id: uuid, expires_at: { type: 'string', format: 'date-time' } },
    undefined,
    { description: 'What `grant.expiring` says (CONTRACT §18).' },
  ),
  ...EVENT_SCHEMAS,
  WebhookTestEvent: object(
    {
      type: { const: 'webhook.test' },
      timestamp: { type: 'string', format: 'date-time', description: 'when the event was created' },
      data: object({ endpoint_id: uuid }),
    },
    undefined,
    { description: 'The body of a webhook.test event: sent to one endpoint only, never in the events feed (CONTRACT §9, §15).' },
  ),
  FeedEvent: {
    oneOf: EVENTS.map((e) => ref(`${e.name}FeedEvent`)),
    description: 'An event of the feed: the webhook body with its webhook-id first (CONTRACT §14), one of the types of CONTRACT §9 and §18.',
  },
  TokenGrant: object(
    {
      environment,
      organization_id: uuid,
      grant_id: { type: ['string', 'null'], format: 'uuid', description: 'null in the sandbox' },
      scopes: { type: 'array', items: scopeItems },
      account_ids: { type: 'array', items: uuid, description: 'the active accounts this token may use, as `GET /accounts` lists them' },
      expires_at: { type: ['string', 'null'], format: 'date-time', description: 'null in the sandbox' },
      mandate: { type: 'boolean', description: 'a posting mandate is in force (always in the sandbox)' },
    },
    undefined,
    { description: 'What this token may do (CONTRACT §18).' },
  ),
  EventsPage: object(
    {
      data: { type: 'array', items: ref('FeedEvent'), maxItems: 100 },
      next_cursor: { type: 'string', description: 'opaque; pass it as `after` to read on (also from an empty page, later)' },
      has_more: { type: 'boolean', description: 'more events can be read now' },
    },
    undefined,
    { description: "A page of the app's events, in commit order (CONTRACT §14)." },
  ),
  AccountList: object(
    {
      data: {
        type: 'array',
        items: object({ id: uuid, number: { type: 'string', minLength: 1, maxLength: 20 }, name: { type: 'string' } }),
      },
    },
    undefined,
    { description: 'The active accounts the token may post to (sandbox: every active account of the project), by number.' },
  ),
  TaxCodeList: object(
    {
      data: {
        type: 'array',
        items: object({ id: uuid, code: { type: 'string' }, rate_basis_points: { type: 'integer', minimum: 0 } }),
      },
    },
    undefined,
    { description: "The organization's tax codes, by code." },
  ),
  Attachment: object(ATTACHMENT_MEMBERS, undefined, { description: 'Voucher documentation attached to an entry (CONTRACT §17).' }),
  AttachmentAdded: object(
    {
      ...ATTACHMENT_MEMBERS,
      operation_id: uuid,
      replayed: { type: 'boolean', description: 'true: the answer of the first upload with this Idempotency-Key' },
    },
    undefined,
    { description: 'The answer of an upload: its first execution or a replay (CONTRACT §17).' },
  ),
  JournalEntry: object(
    {
      id: uuid,
      voucher_year: { type: 'integer', minimum: 1 },
      voucher_number: { type: 'integer', minimum: 1 },
      posting_date: date,
      transaction_date: { type: ['string', 'null'], format: 'date' },
      document_date: { type: ['string', 'null'], format: 'date' },
      description: { type: ['string', 'null'] },
      currency: { type: 'string' },
      lines: {
        type: 'array',
        items: object({
          account_id: uuid,
          debit_minor: MINOR,
          credit_minor: MINOR,
          tax_code_id: { type: ['string', 'null'], format: 'uuid' },
          dimension_refs: { type: 'array' },
          line_text: { type: ['string', 'null'] },
        }),
      },
      attachments: { type: 'array', items: ref('Attachment'), maxItems: 20 },
      operation_id: uuid,
      posted_at: { type: 'string', format: 'date-time' },
    },
    undefined,
    { description: 'A journal entry as posted: the normalized input, lines in posted order, its attachments (CONTRACT §17).' },
  ),
  JournalEntriesPage: object(
    {
      data: { type: 'array', items: ref('JournalEntry'), maxItems: 100 },
      next_cursor: { type: 'string', description: 'opaque; pass it as `after` to read on (also from an empty page, later)' },
      has_more: { type: 'boolean', description: 'more entries can be read now' },
    },
    undefined,
    { description: "A page of the app's journal entries, in the order they committed (CONTRACT §17)." },
  ),
  Problem: PROBLEM_SCHEMA,
};

/** CONTRACT §3 step 0–2 and §12, §3: what any partner call can answer. */
const ACCESS = ['missing_token', 'invalid_token', 'token_environment_mismatch', 'grant_revoked', 'grant_expired', 'app_revision_changed', 'insufficient_scope'];
const ALWAYS = ['rate_limited', 'internal_error', 'service_unavailable'];
const BODY = ['invalid_input', 'invalid_amount', 'payload_too_large', 'unsupported_media_type'];
const IDEMPOTENT = ['idempotency_key_required', 'invalid_idempotency_key', 'idempotency_key_reused', 'idempotency_request_in_progress', 'idempotency_grant_changed'];

const ENTRY_ID = { name: 'entry_id', in: 'path', required: true, description: 'The id of a journal entry the app posted (a uuid).', schema: uuid };
const ATTACHMENT_ID = { name: 'attachment_id', in: 'path', required: true, description: 'The id of an attachment of that entry (a uuid).', schema: uuid };

interface PartnerOperation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  /** several: any one of them */
  scope: (typeof SCOPES)[number] | Array<(typeof SCOPES)[number]>;
  idempotent: boolean;
  success: Responses;
  errors: string[];
  /** query parameters, as OpenAPI parameter objects */
  query?: unknown[];
  /** path and header parameters other than {operation_id} and Idempotency-Key, as OpenAPI parameter objects */
  parameters?: unknown[];
  /** the request body, when the controller's is not a JSON DTO */
  requestBody?: unknown;
}

const OPERATIONS: PartnerOperation[] = [
  {
    method: 'post',
    path: '/journal/prepare',
    operationId: 'prepareJournal',
    summary: 'Check a journal before posting it',
    scope: 'journal:prepare',
    idempotent: false,
    success: { '200': jsonResponse('The journal is valid; nothing was written (an Idempotency-Key is ignored).', ref('PrepareResult'), 200, RATE) },
    errors: [...ACCESS, ...BODY, 'journal_unbalanced', 'reference_not_allowed', ...ALWAYS],
  },
  {
    method: 'post',
    path: '/journal',
    operationId: 'postJournal',
    summary: 'Post a journal (final)',
    scope: 'journal:post',
    idempotent: true,
    success: { '201': jsonResponse('Posted, or a replay of the first posting with this Idempotency-Key.', ref('JournalPostResult'), 201, RATE) },
    errors: [...ACCESS, 'mandate_required', ...BODY, ...IDEMPOTENT, 'journal_unbalanced', 'reference_not_allowed', 'period_locked', ...ALWAYS],
  },
  {
    method: 'post',
    path: '/products',
    operationId: 'createProduct',
    summary: 'Create a product',
    scope: 'products:create',
    idempotent: true,
    success: { '201': jsonResponse('Created, or a replay of the first creation with this Idempotency-Key.', ref('ProductCreateResult'), 201, RATE) },
    errors: [...ACCESS, ...BODY, ...IDEMPOTENT, 'resource_conflict', ...ALWAYS],
  },
  {
    method: 'get',
    path: '/operations/{operation_id}',
    operationId: 'getOperation',
    summary: 'The receipt of a completed write',
    scope: 'operations:read',
    idempotent: false,
    success: { '200': jsonResponse('The receipt.', ref('OperationReceipt'), 200, RATE) },
    errors: [...ACCESS, 'not_found', ...ALWAYS],
  },
  {
    method: 'get',
    path: '/events',
    operationId: 'listEvents',
    summary: "The app's events in commit order (catch-up for webhooks)",
    scope: 'operations:read',
    idempotent: false,
    success: { '200': jsonResponse('A page of events; follow `next_cursor`.', ref('EventsPage'), 200, RATE) },
    errors: [...ACCESS, 'invalid_input', ...ALWAYS],
    query: [
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'A `next_cursor` of an earlier page; without it the feed starts at the oldest retained event.',
        schema: { type: 'string', maxLength: 200 },
      },
      { name: 'limit', in: 'query', required: false, description: 'Events per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    ],
  },
  {
    method: 'get',
    path: '/grant',
    operationId: 'getGrant',
    summary: 'What this token may do',
    scope: [...SCOPES],
    idempotent: false,
    success: { '200': jsonResponse('The grant of this token (in the sandbox: the project\'s access).', ref('TokenGrant'), 200, RATE) },
    errors: [...ACCESS, ...ALWAYS],
  },
  {
    method: 'get',
    path: '/journal/entries',
    operationId: 'listJournalEntries',
    summary: "The app's journal entries in the order they committed",
    scope: 'journal:read',
    idempotent: false,
    success: { '200': jsonResponse('A page of entries; follow `next_cursor`.', ref('JournalEntriesPage'), 200, RATE) },
    errors: [...ACCESS, 'invalid_input', ...ALWAYS],
    query: [
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'A `next_cursor` of an earlier page; without it the list starts at the first entry.',
        schema: { type: 'string', maxLength: 200 },
      },
      { name: 'limit', in: 'query', required: false, description: 'Entries per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'posting_date_from', in: 'query', required: false, description: 'Only entries posted on or after this date.', schema: date },
      { name: 'posting_date_to', in: 'query', required: false, description: 'Only entries posted on or before this date.', schema: date },
      {
        name: 'without_attachments',
        in: 'query',
        required: false,
        description: '`true`: only entries that have no attachment yet.',
        schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
      },
    ],
  },
  {
    method: 'get',
    path: '/journal/entries/{entry_id}',
    operationId: 'getJournalEntry',
    summary: 'One journal entry the app posted, with its attachments',
    scope: 'journal:read',
    idempotent: false,
    success: { '200': jsonResponse('The entry.', ref('JournalEntry'), 200, RATE) },
    errors: [...ACCESS, 'not_found', ...ALWAYS],
    parameters: [ENTRY_ID],
  },
  {
    method: 'post',
    path: '/journal/entries/{entry_id}/attachments',
    operationId: 'addJournalEntryAttachment',
    summary: 'Attach voucher documentation (bilag) to an entry the app posted',
    scope: 'journal:post',
    idempotent: true,
    success: { '201': jsonResponse('Attached, or a replay of the first upload with this Idempotency-Key.', ref('AttachmentAdded'), 201, RATE) },
    errors: [...ACCESS, ...IDEMPOTENT, 'invalid_input', 'not_found', 'resource_conflict', 'payload_too_large', 'unsupported_media_type', ...ALWAYS],
    parameters: [
      ENTRY_ID,
      {
        name: 'Content-Disposition',
        in: 'header',
        required: false,
        description: 'RFC 6266 `attachment; filename="…"` (or `filename*=UTF-8\'\'…`) names the file; without it the name is `bilag-<voucher_year>-<voucher_number>-<n>.<ext>`.',
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      description: 'The file itself, at most ATTACHMENT_MAX_BYTES (default 10,485,760) bytes; its first bytes must match its type.',
      content: Object.fromEntries(ATTACHMENT_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
    },
  },
  {
    method: 'get',
    path: '/journal/entries/{entry_id}/attachments/{attachment_id}',
    operationId: 'getJournalEntryAttachment',
    summary: 'The exact bytes of an attachment',
    scope: 'journal:read',
    idempotent: false,
    success: {
      '200': {
        description: 'The file, with its type; `ETag` is its quoted sha256.',
        headers: {
          ...responseHeaders(200, RATE),
          ETag: { required: true, description: 'The quoted sha256 of the bytes.', schema: { type: 'string' } },
          'Content-Disposition': { required: true, description: "`attachment; filename*=UTF-8''…`", schema: { type: 'string' } },
        },
        content: Object.fromEntries(ATTACHMENT_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
      },
      '304': { description: '`If-None-Match` named the ETag: the bytes are those the client has.', headers: responseHeaders(304, RATE) },
    },
    errors: [...ACCESS, 'not_found', ...ALWAYS],
    parameters: [
      ENTRY_ID,
      ATTACHMENT_ID,
      { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a copy the client has.', schema: { type: 'string' } },
    ],
  },
  {
    method: 'get',
    path: '/accounts',
    operationId: 'listAccounts',
    summary: 'The accounts a journal may use',
    scope: ['journal:prepare', 'journal:post'],
    idempotent: false,
    success: { '200': jsonResponse('The permitted active accounts, by number.', ref('AccountList'), 200, RATE) },
    errors: [...ACCESS, ...ALWAYS],
  },
  {
    method: 'get',
    path: '/tax-codes',
    operationId: 'listTaxCodes',
    summary: 'The tax codes a journal may use',
    scope: ['journal:prepare', 'journal:post'],
    idempotent: false,
    success: { '200': jsonResponse("The organization's tax codes, by code.", ref('TaxCodeList'), 200, RATE) },
    errors: [...ACCESS, ...ALWAYS],
  },
];

const scopeWords = (scope: PartnerOperation['scope']): string =>
  typeof scope === 'string' ? `Scope \`${scope}\`` : `Scope ${scope.map((s) => `\`${s}\``).join(' or ')}`;

const SCOPE_WORDS = scopeOpenApiWords();

/**
 * The partner API's OpenAPI 3.1 document (CONTRACT §13). Paths, parameters and request bodies come from
 * the controllers and the field decorators; success bodies, problems, headers and security are the
 * contract's and are declared here.
 */
export function createPartnerDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Partner API')
    .setDescription(
      'Journal prepare and posting, product creation and operation receipts for partner integrations of a Danish ' +
        'accounting system. Amounts are integers of øre. Errors are `application/problem+json` (RFC 9457) with a stable `code`. ' +
        'The environment of a call is decided by its base path alone: sandbox tokens (`hsk_…`) call the sandbox server, ' +
        'production tokens (`hat_…`) the production server.',
    )
    .setVersion('v1')
    .addServer(`/${SANDBOX_BASE}`, 'Sandbox')
    .addServer(`/${PRODUCTION_BASE}`, 'Production')
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'An opaque access token: `hsk_…` (sandbox) or `hat_…` (production), 50 characters.',
    })
    .addSecurity('oauth2', {
      type: 'oauth2',
      description: "Owner consent (CONTRACT §11): authorization code with PKCE (S256); the token endpoint answers an `hat_…` token.",
      flows: {
        authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: SCOPE_WORDS },
      },
    })
    .addTag('journal', 'Journal prepare and final posting')
    .addTag('products', 'Products')
    .addTag('operations', 'Operation receipts')
    .addTag('events', 'The events feed')
    .addTag('grant', "The token's grant")
    .build();
  config.info.license = { name: 'Proprietary' };
  const scanned = SwaggerModule.createDocument(app, config);
  const prefix = `/${PRODUCTION_BASE}`;
  const paths: OpenAPIObject['paths'] = {};

  for (const op of OPERATIONS) {
    // controllers serve both bases; the document has one path per operation under both servers
    const nestPath = prefix + op.path.replace(/\{operation_id\}/, '{operationId}').replace(/\{entry_id\}/, '{entryId}').replace(/\{attachment_id\}/, '{attachmentId}');
    const generated = (scanned.paths[nestPath] as Record<string, Record<string, unknown>> | undefined)?.[op.method];
    if (!generated) throw new Error(`the partner API has no ${op.method.toUpperCase()} ${op.path}`);
    const parameters: unknown[] = [];
    if (op.path.includes('{operation_id}')) {
      parameters.push({ name: 'operation_id', in: 'path', required: true, description: 'The operation id of a write (a uuid).', schema: uuid });
    }
    parameters.push(...(op.parameters ?? []));
    if (op.idempotent) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
    parameters.push(...(op.query ?? []));
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        description: `${scopeWords(op.scope)}.${op.idempotent ? ' Exactly once per `Idempotency-Key` (CONTRACT §6).' : ''}`,
        tags: generated.tags,
        // OpenAPI: the entries of `security` are alternatives; the scopes of one entry are all needed
        security: [{ bearer: [] }, ...(typeof op.scope === 'string' ? [op.scope] : op.scope).map((scope) => ({ oauth2: [scope] }))],
        ...(parameters.length ? { parameters } : {}),
        ...(op.requestBody ? { requestBody: op.requestBody } : generated.requestBody ? { requestBody: { ...(generated.requestBody as object), required: true } } : {}),
        responses: { ...op.success, ...problemResponses(op.errors, RATE) },
      },
    };
  }

  const document: OpenAPIObject = {
    ...scanned,
    paths,
    components: {
      ...scanned.components,
      schemas: { ...scanned.components?.schemas, ...SCHEMAS } as never,
      headers: HEADERS as never,
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: '1–255 visible ASCII characters (0x21–0x7E), scoped to (environment, organization, app).',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]{1,255}$' },
        },
      } as never,
    },
  };
  closeRequestSchemas(document, ['JournalRequestDto', 'JournalLineRequestDto', 'CreateProductRequestDto']);
  const webhookHeaders = [
    { name: 'webhook-id', in: 'header' as const, required: true, schema: { type: 'string' } },
    { name: 'webhook-timestamp', in: 'header' as const, required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
    {
      name: 'webhook-signature',
      in: 'header' as const,
      required: true,
      description: 'for 24 h after the secret is rotated, two space-separated signatures: the new secret\'s first, then the previous one\'s',
      schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
    },
  ];
  const acknowledged = { '200': { description: 'Any 2xx answered within 10 s acknowledges the event.' } };
  (document as OpenAPIObject & { webhooks: unknown }).webhooks = {
    ...Object.fromEntries(
      EVENTS.map((e) => [
        e.type,
        {
          post: {
            operationId: e.name.charAt(0).toLowerCase() + e.name.slice(1),
            summary: e.summary,
            description:
              `${e.description} Signed per Standard Webhooks, retried with backoff until a 2xx; every attempt carries the same ` +
              '`webhook-id` and body. Answer 2xx to types you do not know.',
            security: [],
            parameters: webhookHeaders,
            requestBody: { required: true, content: { 'application/json': { schema: ref(`${e.name}Event`) } } },
            responses: acknowledged,
          },
        },
      ]),
    ),
    'webhook.test': {
      post: {
        operationId: 'webhookTest',
        summary: 'A test event',
        description:
          'Sent to one endpoint when its test is asked for (console or developer console), signed and retried like any ' +
          'other event; never in the events feed. A receiver answers 2xx to event types it does not know (CONTRACT §9).',
        security: [],
        parameters: webhookHeaders,
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookTestEvent') } } },
        responses: acknowledged,
      },
    },
  };
  return document;
}

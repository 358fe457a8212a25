import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { isScope, SCOPES, scopeOpenApiWords } from '../../domain/scopes';
import { openApiTags, pathParameterWords } from '../../module-facts';
import { PRODUCTION_BASE, SANDBOX_BASE } from '../partner-paths';
import { closeRequestSchemas, declaredSchemas, HEADERS, inOrder, object, PROBLEM_SCHEMA, type ProblemAt, problemResponses, ref, type Schema, uuid } from './common';
import {
  IDEMPOTENCY_ERRORS,
  IDEMPOTENT_EXTENSION,
  PARTNER_OPERATION_EXTENSION,
  EVERY_SCOPE_EXTENSION,
  PARTNER_RATE,
  type PartnerOperationFacts,
} from './partner-operation';

// The partner API's OpenAPI 3.1 document (CONTRACT §13). What each operation says (operationId, summary,
// result schemas, errors, parameters) is declared on its controller method (@PartnerOperation), its scopes
// by @PartnerRoute and its Idempotency-Key by @Idempotent(); the scan brings them here. This file adds
// what is the same for every partner call: servers, security schemes, the access and availability
// problems, the headers, the Idempotency-Key parameter, and the webhooks.

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

/** CONTRACT §3 steps 0–2, §12: what any partner call can answer before its own codes … */
const ACCESS = ['missing_token', 'invalid_token', 'token_environment_mismatch', 'grant_revoked', 'grant_expired', 'app_revision_changed', 'insufficient_scope'];
/** … and after them. */
const ALWAYS = ['rate_limited', 'internal_error', 'service_unavailable'];

/**
 * The order of the checked-in document, so that moving a route between modules does not reorder it.
 * Only an order: operations and schemas not named here follow in the order the scan finds them, and a
 * name of something gone is ignored.
 */
const OPERATION_ORDER = [
  'prepareJournal', 'postJournal', 'createProduct', 'getOperation', 'listEvents', 'getGrant', 'listJournalEntries', 'getJournalEntry',
  'addJournalEntryAttachment', 'getJournalEntryAttachment', 'listAccounts', 'listTaxCodes',
];
const SCHEMA_ORDER = [
  'PrepareResult', 'ProductCreated', 'ProductReplayed', 'ProductCreateResult', 'JournalPosted', 'JournalReplayed', 'JournalPostResult',
  'OperationReceipt', 'GrantRevokedData', 'GrantExpiringData', ...Object.keys(EVENT_SCHEMAS), 'WebhookTestEvent', 'FeedEvent', 'TokenGrant',
  'EventsPage', 'AccountList', 'TaxCodeList', 'Attachment', 'AttachmentAdded', 'JournalEntry', 'JournalEntriesPage',
];

/** The schemas of the webhooks part (CONTRACT §9, §14, §18) that no route declares (the events' `data` schemas are declared with their routes). */
const WEBHOOK_SCHEMAS: Record<string, Schema> = {
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
};

/**
 * The document's head: title, servers, security schemes and tags. The scopes' words (the oauth2 scheme's
 * `scopes`) and the tags are the modules' (their facts.ts, src/shared/module-facts.ts).
 */
function partnerDocumentHead(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
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
        authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: scopeOpenApiWords() },
      },
    });
  for (const [name, words] of openApiTags()) builder.addTag(name, words);
  const config = builder.build();
  config.info.license = { name: 'Proprietary' };
  return config;
}

/** An operation as the scan found it: the route's own declarations, read back from the scanned document. */
export interface ScannedPartnerOperation {
  method: string;
  /** the document's path: relative to the servers, path parameters in snake_case */
  path: string;
  /** the controller method's @PartnerOperation, or undefined when it has none */
  facts: PartnerOperationFacts | undefined;
  idempotent: boolean;
  /** the scopes of @PartnerRoute: any one of them suffices */
  scopes: string[];
  generated: Record<string, unknown>;
}

/**
 * The partner routes of a scanned document. Every route serves both bases; the production base's copy
 * stands for both (the document's servers name the two bases).
 */
export function scannedPartnerOperations(scanned: OpenAPIObject): ScannedPartnerOperation[] {
  const prefix = `/${PRODUCTION_BASE}`;
  return Object.entries(scanned.paths)
    .filter(([nestPath]) => nestPath.startsWith(`${prefix}/`))
    .flatMap(([nestPath, item]) =>
      Object.entries(item as Record<string, Record<string, unknown>>).map(([method, generated]) => ({
        method,
        path: nestPath.slice(prefix.length).replace(/\{(\w+)\}/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`),
        facts: generated[PARTNER_OPERATION_EXTENSION] as PartnerOperationFacts | undefined,
        idempotent: generated[IDEMPOTENT_EXTENSION] === true,
        ...scopesOf(generated),
      })),
    );
}

/**
 * A route's scopes and its security: as @PartnerRoute declared them, or every scope the modules declare for a
 * route that any scope may call (`@PartnerRoute(SCOPES)`, known only once every module has loaded).
 */
function scopesOf(generated: Record<string, unknown>): { scopes: string[]; generated: Record<string, unknown> } {
  const security = generated[EVERY_SCOPE_EXTENSION] === true
    ? [...((generated.security ?? []) as Array<Record<string, string[]>>), ...SCOPES.map((s) => ({ oauth2: [s] }))]
    : ((generated.security ?? []) as Array<Record<string, string[]>>);
  const scopes = security.flatMap((entry) => entry.oauth2 ?? []);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new Error(`a partner route names the scope ${unknown.join(', ')}, which no module declares (declare it in its module's facts.ts)`);
  return { scopes, generated: { ...generated, security } };
}

const where = (op: ScannedPartnerOperation) => `${op.method.toUpperCase()} ${op.path}`;

/** The facts of an operation, or an error that says where to declare them. */
function factsOf(op: ScannedPartnerOperation): PartnerOperationFacts {
  if (!op.facts) {
    throw new Error(
      `${where(op)} has no @PartnerOperation: declare its operationId, summary, success and errors on the controller method ` +
        '(src/shared/http/openapi/partner-operation.ts says what it takes)',
    );
  }
  // an Idempotency-Key can be refused, reused or in progress: an exactly-once write lists those answers
  const listsIdempotency = IDEMPOTENCY_ERRORS.every((code) => op.facts!.errors.includes(code));
  if (op.idempotent !== listsIdempotency) {
    throw new Error(`${where(op)}: an @Idempotent() route lists IDEMPOTENCY_ERRORS in its @PartnerOperation errors, and only such a route`);
  }
  return op.facts;
}

/** The path parameters of a document path, in their order, described by the modules' facts (`openapi.pathParameters`). */
function pathParameters(path: string): unknown[] {
  const words = pathParameterWords();
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const description = words[name];
    if (!description) throw new Error(`the path parameter {${name}} of ${path} has no words: declare them in its module's facts.ts (openapi.pathParameters)`);
    return { name, in: 'path', required: true, description, schema: uuid };
  });
}

const scopeWords = (scopes: string[]): string => `Scope ${scopes.map((s) => `\`${s}\``).join(' or ')}`;

/** An operation's own codes: a GET's query parameter it does not define is `invalid_input` (CONTRACT §20), so every GET lists it. */
function errorsOf(op: ScannedPartnerOperation, facts: PartnerOperationFacts): ReadonlyArray<string | ProblemAt> {
  const listed = facts.errors.some((e) => (typeof e === 'string' ? e : e.code) === 'invalid_input');
  return op.method === 'get' && !listed ? ['invalid_input', ...facts.errors] : facts.errors;
}

/** One operation of the document. */
function describe(op: ScannedPartnerOperation, facts: PartnerOperationFacts): Record<string, unknown> {
  const parameters = [
    ...pathParameters(op.path),
    ...(facts.headers ?? []),
    ...(op.idempotent ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
    ...(facts.query ?? []),
  ];
  const generatedBody = op.generated.requestBody as object | undefined;
  return {
    operationId: facts.operationId,
    summary: facts.summary,
    description: `${scopeWords(op.scopes)}.${op.idempotent ? ' Exactly once per `Idempotency-Key` (CONTRACT §6).' : ''}`,
    tags: op.generated.tags,
    // the entries of `security` are alternatives (bearer, or OAuth with any one of the scopes): @PartnerRoute's
    security: op.generated.security,
    ...(parameters.length ? { parameters } : {}),
    ...(facts.requestBody ? { requestBody: facts.requestBody } : generatedBody ? { requestBody: { ...generatedBody, required: true } } : {}),
    responses: { ...facts.success, ...problemResponses([...ACCESS, ...errorsOf(op, facts), ...ALWAYS], PARTNER_RATE) },
  };
}

/**
 * Scans the partner application's routes and builds its OpenAPI document: the operations as the routes
 * declare them, in the document's order, and the parts every partner call shares.
 */
export function partnerDocumentFromRoutes(app: INestApplication): OpenAPIObject {
  // 1. the scan: paths, tags, security and request DTO schemas, plus each route's declarations
  const scanned = SwaggerModule.createDocument(app, partnerDocumentHead());
  const operations = inOrder(
    scannedPartnerOperations(scanned).map((op) => ({ op, facts: factsOf(op) })),
    ({ facts }) => facts.operationId,
    OPERATION_ORDER,
  );

  // 2. one path per route (under both servers), its operations in the document's order
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { op, facts } of operations) paths[op.path] = { ...paths[op.path], [op.method]: describe(op, facts) };

  // 3. components: the request DTOs (closed: an unknown member is refused, CONTRACT §5), then the result
  // and webhook schemas, then the problem body
  const results = Object.entries({ ...declaredSchemas(operations.map(({ facts }) => facts.schemas)), ...WEBHOOK_SCHEMAS });
  const document: OpenAPIObject = {
    ...scanned,
    paths: paths as OpenAPIObject['paths'],
    components: {
      ...scanned.components,
      schemas: { ...scanned.components?.schemas, ...Object.fromEntries(inOrder(results, ([name]) => name, SCHEMA_ORDER)), Problem: PROBLEM_SCHEMA } as never,
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
  closeRequestSchemas(document, Object.keys(scanned.components?.schemas ?? {}));

  // 4. the webhooks an app receives (CONTRACT §9, §18)
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

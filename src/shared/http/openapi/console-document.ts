import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { closeRequestSchemas, declaredSchemas, HEADERS, inOrder, jsonResponse, PROBLEM_SCHEMA, problemResponses, type Schema, uuid } from './common';
import { CONSOLE_OPERATION_EXTENSION, type ConsoleOperationFacts } from './console-operation';

// The console (operator) API's OpenAPI 3.1 document (CONTRACT §10, §13). What each call says is declared
// on its controller method (@ConsoleOperation, result schemas in the console module's console.openapi.ts);
// this file adds what every console call shares: the server, the key, the common problems and headers.

export const CONSOLE_BASE = '/console/v1';
/** Served on the console listener without the key (CONTRACT §1, §13). */
export const CONSOLE_DOCUMENT_PATH = `${CONSOLE_BASE}/openapi.json`;

const PLAIN = { rateLimit: false };
/** What any console call can answer besides its own codes. */
const COMMON = ['missing_token', 'invalid_token', 'internal_error', 'service_unavailable'];

/**
 * The order of the checked-in document, so that moving a route between controllers does not reorder it.
 * Only an order: calls and schemas not named here follow in the order the scan finds them.
 */
const OPERATION_ORDER = [
  'createSandboxProject', 'createSandboxGeneration', 'createOrganization', 'getOrganization', 'createAccount', 'deactivateAccount', 'createTaxCode',
  'enrolOwner', 'listGrants', 'createGrant', 'createMandate', 'closePeriod', 'createApp', 'getApp', 'setOAuthClient', 'createAppRevision',
  'approveAppRevision', 'createWebhookEndpoint', 'enableWebhookEndpoint', 'rotateWebhookSecret', 'recoverWebhookEndpoint', 'sendWebhookTest',
  'listWebhookDeliveries', 'resendWebhookDelivery', 'listPendingRevisions', 'revokeGrant', 'issueToken', 'setOwnerPassword', 'createDeveloper',
  'revokeMandate',
];
const SCHEMA_ORDER = [
  'Created', 'SandboxProject', 'SandboxGeneration', 'AccountDeactivated', 'OwnerEnrolled', 'PasswordSet', 'DeveloperCreated', 'OAuthClient',
  'AppRevision', 'AppRevisionApproved', 'GrantCreated', 'Revoked', 'TokenIssued', 'PeriodClosed', 'PendingRevision', 'WebhookEndpointCreated',
  'Organization', 'App', 'WebhookEndpointEnabled', 'WebhookSecretRotated', 'WebhookRecovery', 'WebhookTestSent', 'Grant', 'WebhookDelivery',
];

const PARAMETER_WORDS: Record<string, string> = {
  period: 'a calendar month, YYYY-MM',
};

/** The document's head: title, server, the key. */
function consoleDocumentHead(): Omit<OpenAPIObject, 'paths'> {
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
  return config;
}

interface ScannedConsoleOperation {
  method: string;
  /** relative to the server, with the path parameter names the controllers use */
  path: string;
  facts: ConsoleOperationFacts | undefined;
  generated: Record<string, unknown>;
}

/** The console routes of a scanned document (routes outside the base, e.g. /metrics, are not the console API's). */
function scannedConsoleOperations(scanned: OpenAPIObject): ScannedConsoleOperation[] {
  return Object.entries(scanned.paths)
    .filter(([path]) => path.startsWith(`${CONSOLE_BASE}/`))
    .flatMap(([path, item]) =>
      Object.entries(item as Record<string, Record<string, unknown>>)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, generated]) => ({
          method,
          path: path.slice(CONSOLE_BASE.length),
          facts: generated[CONSOLE_OPERATION_EXTENSION] as ConsoleOperationFacts | undefined,
          generated,
        })),
    );
}

/** One call of the document. */
function describe(op: ScannedConsoleOperation, facts: ConsoleOperationFacts): Record<string, unknown> {
  const parameters = [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      description: PARAMETER_WORDS[name] ?? `a uuid`,
      schema: name === 'period' ? { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$' } : uuid,
    })),
    ...(facts.query ?? []),
  ];
  // the success status is the route's @HttpCode, which the scan answers as its only response
  const status = Number(Object.keys(op.generated.responses as object)[0]);
  const body = op.generated.requestBody as Record<string, unknown> | undefined;
  return {
    operationId: facts.operationId,
    summary: facts.summary,
    tags: op.generated.tags,
    ...(parameters.length ? { parameters } : {}),
    ...(op.method === 'post' && body ? { requestBody: { ...body, required: !facts.emptyBody } } : {}),
    responses: {
      [String(status)]: jsonResponse(facts.summary, facts.result, status, PLAIN),
      ...problemResponses([...facts.errors, ...COMMON], PLAIN),
    },
  };
}

/**
 * Scans the console application's routes and builds its OpenAPI document: the calls as the routes
 * declare them, in the document's order, and the parts every console call shares.
 */
export function consoleDocumentFromRoutes(app: INestApplication): OpenAPIObject {
  // 1. the scan: paths, request DTO schemas, and each route's @ConsoleOperation
  const scanned = SwaggerModule.createDocument(app, consoleDocumentHead());
  const operations = inOrder(
    scannedConsoleOperations(scanned).map((op) => {
      if (!op.facts) throw new Error(`${op.method.toUpperCase()} ${CONSOLE_BASE}${op.path} has no @ConsoleOperation: declare it on the controller method`);
      return { op, facts: op.facts };
    }),
    ({ facts }) => facts.operationId,
    OPERATION_ORDER,
  );

  // 2. one path per route, its calls in the document's order
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { op, facts } of operations) paths[op.path] = { ...paths[op.path], [op.method]: describe(op, facts) };

  // 3. components: the request DTOs (closed: an unknown member is refused), the result schemas, the problem
  const results = declaredSchemas(operations.map(({ facts }) => facts.schemas));
  const document: OpenAPIObject = {
    ...scanned,
    paths: paths as OpenAPIObject['paths'],
    components: {
      ...scanned.components,
      schemas: {
        ...scanned.components?.schemas,
        ...Object.fromEntries(inOrder(Object.entries(results), ([name]) => name, SCHEMA_ORDER)),
        Problem: PROBLEM_SCHEMA,
      } as never,
      headers: { 'X-Request-Id': HEADERS['X-Request-Id'], 'Retry-After': HEADERS['Retry-After'], 'WWW-Authenticate': HEADERS['WWW-Authenticate'] } as never,
    },
  };
  closeRequestSchemas(document, Object.keys(scanned.components?.schemas ?? {}));
  const schemas = document.components!.schemas as Record<string, Schema>;
  if (schemas.EmptyRequestDto) schemas.EmptyRequestDto.description = 'No fields: `{}` (a bodiless POST counts as `{}`).';
  return document;
}

/** Scanned console routes without a @ConsoleOperation (the document builder refuses them). */
export function undescribedConsoleRoutes(app: INestApplication): string[] {
  const scanned = SwaggerModule.createDocument(app, new DocumentBuilder().build());
  return scannedConsoleOperations(scanned)
    .filter((op) => !op.facts)
    .map((op) => `${op.method} ${CONSOLE_BASE}${op.path}`);
}

import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOGUE } from '../error-catalogue';

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) or a reference. */
export type Schema = Record<string, unknown>;
export type Responses = Record<string, Record<string, unknown>>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const uuid: Schema = { type: 'string', format: 'uuid' };
/** The environment a partner call ran in (CONTRACT §2). */
export const environment: Schema = { type: 'string', enum: ['sandbox', 'production'] };
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The codes of CONTRACT §4, in the catalogue's order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE);

/** An object with exactly these members: `required` lists the ones always present. */
export function object(properties: Record<string, Schema>, required: string[] = Object.keys(properties), extra: Schema = {}): Schema {
  return { type: 'object', additionalProperties: false, required, properties, ...extra };
}

/** One entry of a problem's `errors[]`, as the validation pipe and the reference check write it (CONTRACT §4). */
const PROBLEM_VIOLATION_SCHEMA: Schema = object(
  {
    pointer: { type: 'string', description: 'RFC 6901 JSON Pointer into the request body (or /after, /limit for a query parameter)', examples: ['/lines/0/debit_minor'] },
    code: { type: 'string', enum: ['invalid_input', 'invalid_amount', 'reference_not_allowed'], description: 'the kind of this violation' },
    detail: { type: 'string', description: 'what is wrong with the value, in words' },
  },
  undefined,
  { description: 'One offending field of the request (CONTRACT §4).' },
);

/** The RFC 9457 problem body of CONTRACT §4. */
export const PROBLEM_SCHEMA: Schema = object(
  {
    type: { type: 'string', pattern: '^urn:partner-api:error:[a-z0-9_]+$', examples: ['urn:partner-api:error:invalid_input'] },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    code: { type: 'string', enum: ERROR_CODES, description: 'the stable machine-readable error code' },
    detail: { type: 'string' },
    errors: {
      type: 'array',
      maxItems: 100,
      description: 'one entry per offending field (invalid_input, invalid_amount, reference_not_allowed), in body order',
      // described in place (not by reference), so that the problem schema alone says what an entry holds
      items: PROBLEM_VIOLATION_SCHEMA,
    },
    request_id: { type: 'string', description: 'equals the X-Request-Id response header' },
  },
  ['type', 'title', 'status', 'code', 'detail', 'request_id'],
  { description: 'An error (RFC 9457, CONTRACT §4)' },
);


/** Headers every listener sends (CONTRACT §3) and the partner API's rate-limit and auth headers (§4, §12). */
export const HEADERS: Record<string, Record<string, unknown>> = {
  'X-Request-Id': {
    description: "The caller's X-Request-Id when it is 1–128 visible ASCII characters, otherwise a new id; equals a problem's request_id.",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying (at least 1).',
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  RateLimit: {
    description: 'draft-ietf-httpapi-ratelimit-headers: calls left in the window and seconds until a call is free again; sent on every response to a known token.',
    schema: { type: 'string', examples: ['"partner";r=599;t=0'] },
  },
  'RateLimit-Policy': {
    description: 'draft-ietf-httpapi-ratelimit-headers: the limit per 60 s window; sent on every response to a known token.',
    schema: { type: 'string', examples: ['"partner";q=600;w=60'] },
  },
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="…"`, with `error="invalid_token"` when a token was sent, or `error="insufficient_scope", scope="…"`.',
    required: true,
    schema: { type: 'string' },
  },
};

const headerRef = (name: string): Record<string, unknown> => ({ $ref: `#/components/headers/${name}` });

/** Which headers a response of this status carries. */
export function responseHeaders(status: number, options: { rateLimit: boolean }): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (options.rateLimit && status !== 401) {
    headers.RateLimit = headerRef('RateLimit');
    headers['RateLimit-Policy'] = headerRef('RateLimit-Policy');
  }
  if (status === 401) headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
  if (status === 403 && options.rateLimit) {
    headers['WWW-Authenticate'] = {
      description: 'With `insufficient_scope`: `Bearer realm="partner-api", error="insufficient_scope", scope="<needed>"`.',
      schema: { type: 'string' },
    };
  }
  if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
  return headers;
}

/** A code an operation answers with another status than the catalogue's (CONTRACT §19: a reversal's invalid_input is 422). */
export interface ProblemAt {
  readonly code: string;
  readonly status: number;
}

/** One problem response per status, its `code` narrowed to the codes this operation can answer with it. */
export function problemResponses(codes: ReadonlyArray<string | ProblemAt>, options: { rateLimit: boolean }): Responses {
  const byStatus = new Map<number, string[]>();
  for (const item of codes) {
    const code = typeof item === 'string' ? item : item.code;
    const entry = ERROR_CATALOGUE[code];
    if (!entry) throw new Error(`unknown error code ${code}`);
    const status = typeof item === 'string' ? entry.status : item.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Responses = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: statusCodes.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].title}`).join('; '),
      headers: responseHeaders(status, options),
      content: {
        [PROBLEM_MEDIA_TYPE]: {
          schema: {
            allOf: [ref('Problem'), { properties: { status: { const: status }, code: { enum: statusCodes } } }],
          },
        },
      },
    };
  }
  return responses;
}

/** A success response with a JSON body. */
export function jsonResponse(description: string, schema: Schema, status: number, options: { rateLimit: boolean }): Record<string, unknown> {
  return { description, headers: responseHeaders(status, options), content: { 'application/json': { schema } } };
}

/**
 * Request DTO schemas as generated: members not declared are unknown fields (rejected, CONTRACT §5),
 * so each gets `additionalProperties: false`.
 */
export function closeRequestSchemas(document: OpenAPIObject, names: Iterable<string>): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const name of names) {
    const schema = schemas[name];
    if (!schema) throw new Error(`no schema ${name} in the generated document: ${JSON.stringify(document.components?.schemas)}`);
    schema.additionalProperties = false;
    if (Array.isArray(schema.required) && schema.required.length === 0) delete schema.required;
    if (!schema.properties) schema.properties = {};
  }
}

/**
 * Sorts by a pinned order (a document's checked-in order): what the order does not name keeps its scan
 * order after what it names, and a name of something gone is ignored.
 */
export function inOrder<T>(items: T[], nameOf: (item: T) => string, order: string[]): T[] {
  const rank = (item: T) => {
    const i = order.indexOf(nameOf(item));
    return i === -1 ? order.length : i;
  };
  return items.map((item, i) => ({ item, i })).sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i).map(({ item }) => item);
}

/** The result schemas the operations declare, by name; two declarations of one name must agree. */
export function declaredSchemas(declarations: Array<Record<string, Schema> | undefined>): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const [name, schema] of declarations.flatMap((d) => Object.entries(d ?? {}))) {
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) throw new Error(`two operations declare different schemas ${name}`);
    schemas[name] = schema;
  }
  return schemas;
}

/** A page of a list in commit order (CONTRACT §14, §17, shared/domain/commit-order.ts). */
export function commitOrderPage(items: Schema, hasMoreWords: string, description: string): Schema {
  return object(
    {
      data: { type: 'array', items, maxItems: 100 },
      next_cursor: { type: 'string', description: 'opaque; pass it as `after` to read on (also from an empty page, later)' },
      has_more: { type: 'boolean', description: hasMoreWords },
    },
    undefined,
    { description },
  );
}

/** The `after` and `limit` query parameters of a list in commit order. */
export function commitOrderQuery(afterWords: string, limitWords: string): Array<{ name: string; [key: string]: unknown }> {
  return [
    { name: 'after', in: 'query', required: false, description: afterWords, schema: { type: 'string', maxLength: 200 } },
    { name: 'limit', in: 'query', required: false, description: limitWords, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  ];
}

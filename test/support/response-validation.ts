import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Every response a test receives from an app built by createTestApp() is checked against the
 * checked-in OpenAPI document of its listener (CONTRACT §13): the status must be declared for the
 * operation, the media type and body must match that response's schema, and its required headers
 * must be present. Mismatches are collected and fail the test (see test-app.ts).
 *
 * Skipped by rule: paths outside the documented bases (health, docs, OAuth pages, metrics) and the
 * documents themselves. A path under a base that the document does not describe (routing's 404) must
 * still be a Problem.
 */
interface Operation {
  pattern: RegExp;
  method: string;
  pointer: string;
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean; $ref?: string }> }>;
}

interface Listener {
  name: 'partner' | 'console';
  bases: string[];
  operations: Operation[];
  document: Record<string, any>;
}

const ROOT = join(__dirname, '..', '..', 'openapi');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function load(name: 'partner' | 'console', bases: string[]): Listener {
  const document = JSON.parse(readFileSync(join(ROOT, `${name}.json`), 'utf8'));
  ajv.addSchema(document, `${name}.json`);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op?.responses) continue;
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({ pattern, method: method.toUpperCase(), pointer: `#/paths/${escape(path)}/${method}`, responses: op.responses });
    }
  }
  return { name, bases, operations, document };
}

let listeners: { partner: Listener; console: Listener } | undefined;
function documents() {
  listeners ??= {
    partner: load('partner', ['/api/partner/v1', '/api/partner/sandbox/v1']),
    console: load('console', ['/console/v1']),
  };
  return listeners;
}

const compiled = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    compiled.set(ref, v);
  }
  return v;
}

const mismatches: string[] = [];

/** Mismatches seen since the last call (and forgets them). */
export function takeResponseMismatches(): string[] {
  return mismatches.splice(0, mismatches.length);
}

export function checkResponse(
  listenerName: 'partner' | 'console',
  method: string,
  url: string,
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  body: Buffer,
): string | null {
  const listener = documents()[listenerName];
  const path = url.split('?')[0];
  const base = listener.bases.find((b) => path.startsWith(`${b}/`));
  if (!base || method === 'HEAD' || method === 'OPTIONS') return null;
  const rest = path.slice(base.length);
  if (rest === '/openapi.json') return null;
  const where = `${listenerName} ${method} ${path} → ${status}`;
  const operation = listener.operations.find((o) => o.method === method && o.pattern.test(rest));
  const mediaType = String(headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  let text = body.toString('utf8');
  const parse = (): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  if (!operation) {
    // not an operation of the document: routing's answer, which must be a problem
    const ok = mediaType === 'application/problem+json' && validator(`${listenerName}.json#/components/schemas/Problem`)(parse());
    return ok ? null : `${where}: an undescribed route must answer a Problem, got ${mediaType} ${text.slice(0, 200)}`;
  }
  const response = operation.responses[String(status)];
  if (!response) return `${where}: status ${status} is not declared for this operation (body ${text.slice(0, 300)})`;
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const resolved = header.$ref ? listener.document.components.headers[header.$ref.split('/').pop()!] : header;
    if (resolved?.required && headers[name.toLowerCase()] === undefined) return `${where}: required header ${name} is missing`;
  }
  if (!response.content) return null;
  if (!(mediaType in response.content)) {
    return `${where}: media type ${mediaType || '(none)'} is not declared (${Object.keys(response.content).join(', ')})`;
  }
  // a file (CONTRACT §17's download) is declared by its media type; its bytes are the file's
  if (!/^application\/(?:[a-z.+-]+\+)?json$/.test(mediaType)) return null;
  const value = parse();
  if (value === undefined) return `${where}: the body is not JSON: ${text.slice(0, 200)}`;
  const validate = validator(`${listenerName}.json${operation.pointer}/responses/${status}/content/${escape(mediaType)}/schema`);
  if (validate(value)) return null;
  text = JSON.stringify(value).slice(0, 500);
  return `${where}: the body does not match the document: ${ajv.errorsText(validate.errors)}; body ${text}`;
}

/** Captures every response of `server` and checks it when it has been sent. */
export function validateResponsesOf(server: Server, listenerName: 'partner' | 'console'): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    res.on('finish', () => {
      const problem = checkResponse(listenerName, req.method ?? 'GET', req.url ?? '/', res.statusCode, res.getHeaders(), Buffer.concat(chunks));
      if (problem) mismatches.push(problem);
    });
  });
}

/** A webhook body checked against `webhooks['operation.completed']` of the partner document; null when it matches. */
export function checkWebhookBody(body: string): string | null {
  const { partner } = documents();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `the webhook body is not JSON: ${body.slice(0, 200)}`;
  }
  // the body's type names its webhook in the document (CONTRACT §9, §18)
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !partner.document.webhooks?.[type]) return `the webhook body does not match the document: no webhook of type ${String(type)}`;
  const validate = validator(`partner.json#/webhooks/${escape(type)}/post/requestBody/content/application~1json/schema`);
  return validate(value) ? null : `the webhook body does not match the document: ${ajv.errorsText(validate.errors)}`;
}

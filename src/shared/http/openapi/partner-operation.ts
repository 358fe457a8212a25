import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';
import { jsonResponse, type ProblemAt, type Responses, type Schema } from './common';

/**
 * What a partner route says about itself in the OpenAPI document (CONTRACT §13), declared on the
 * controller method beside `@PartnerRoute` (which gives the scopes) and `@Idempotent()` (which marks an
 * exactly-once write). The document builder (partner-document.ts) reads these from the scan; every
 * partner route must carry one (route-operations.spec.ts fails otherwise).
 */
export interface PartnerOperationFacts {
  operationId: string;
  summary: string;
  /** the success responses by status; `partnerJson` builds the usual one */
  success: Responses;
  /**
   * The codes this operation answers besides those every partner call can (the access codes before them,
   * rate_limited, internal_error and service_unavailable after them), in the order the document lists them.
   */
  errors: ReadonlyArray<string | ProblemAt>;
  /** result schemas this operation introduces, by component name (referenced with `ref(name)`) */
  schemas?: Record<string, Schema>;
  /** header parameters, as OpenAPI parameter objects (path parameters come from the route, their words from the modules' facts.ts) */
  headers?: unknown[];
  /**
   * query parameters, as OpenAPI parameter objects: the only ones the route takes — any other is 400
   * `invalid_input` at its name (CONTRACT §20, PARTNER_QUERY_NAMES)
   */
  query?: ReadonlyArray<{ name: string }>;
  /** the request body, when the controller's is not a JSON DTO */
  requestBody?: unknown;
}

/** The OpenAPI extension the scan carries the facts in; the builder removes it. */
export const PARTNER_OPERATION_EXTENSION = 'x-partner-operation';
/** Set by `@Idempotent()` (idempotency module): the route takes an Idempotency-Key (CONTRACT §6). */
export const IDEMPOTENT_EXTENSION = 'x-idempotent';
/** Marks a route that any scope may call (`@PartnerRoute(SCOPES)`): the document lists every scope the modules declare. */
export const EVERY_SCOPE_EXTENSION = 'x-every-scope';

/** The body codes of a JSON write (CONTRACT §4, §5). */
export const BODY_ERRORS = ['invalid_input', 'invalid_amount', 'payload_too_large', 'unsupported_media_type'] as const;
/** What an Idempotency-Key can answer (CONTRACT §6); an `@Idempotent()` route must list them all. */
export const IDEMPOTENCY_ERRORS = [
  'idempotency_key_required',
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'idempotency_grant_changed',
] as const;

/** Partner responses carry the rate-limit headers (CONTRACT §12). */
export const PARTNER_RATE = { rateLimit: true };

/** A partner success response with a JSON body. */
export const partnerJson = (status: number, description: string, schema: Schema): Responses => ({
  [String(status)]: jsonResponse(description, schema, status, PARTNER_RATE),
});

/** Route metadata: the names of the query parameters a partner route declares (the partner guard refuses others). */
export const PARTNER_QUERY_NAMES = 'partner-query-names';

/** Declares a partner route's operation (see PartnerOperationFacts). */
export function PartnerOperation(facts: PartnerOperationFacts): MethodDecorator {
  return applyDecorators(
    ApiOperation({ operationId: facts.operationId, summary: facts.summary }),
    ApiExtension(PARTNER_OPERATION_EXTENSION, facts),
    SetMetadata(PARTNER_QUERY_NAMES, new Set((facts.query ?? []).map((q) => q.name))),
  );
}

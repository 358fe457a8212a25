import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';
import type { Schema } from './common';

/**
 * What a console route says about itself in the console's OpenAPI document (CONTRACT §10, §13), declared
 * on the controller method. The success status is the route's @HttpCode; the document builder
 * (console-document.ts) reads the rest from the scan, and fails for a console route without one.
 */
export interface ConsoleOperationFacts {
  operationId: string;
  /** also the success response's description */
  summary: string;
  /** the success body */
  result: Schema;
  /** the codes this call answers besides missing_token, invalid_token, internal_error and service_unavailable */
  errors: readonly string[];
  /** result schemas it uses, by component name */
  schemas?: Record<string, Schema>;
  /** a body of `{}` may be left out */
  emptyBody?: boolean;
  /** query parameters, as OpenAPI parameter objects */
  query?: unknown[];
}

export const CONSOLE_OPERATION_EXTENSION = 'x-console-operation';

/** What any call with a body can answer (CONTRACT §4, §5). */
export const TRANSPORT_ERRORS = ['invalid_input', 'payload_too_large', 'unsupported_media_type'] as const;

/** Declares a console route's operation (see ConsoleOperationFacts). */
export function ConsoleOperation(facts: ConsoleOperationFacts): MethodDecorator {
  return applyDecorators(ApiOperation({ operationId: facts.operationId, summary: facts.summary }), ApiExtension(CONSOLE_OPERATION_EXTENSION, facts));
}

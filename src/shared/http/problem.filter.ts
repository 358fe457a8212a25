import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { isServiceUnavailable } from '../database/database-failure';
import { DomainError, type ErrorHeaders, SERVICE_UNAVAILABLE_RETRY_AFTER, ServiceUnavailableError } from '../domain/errors';
import { ERROR_CATALOGUE } from './error-catalogue';
import type { ObservedLocals } from './observed-locals';
import { requestLog } from '../logging/request-log';
import type { RequestWithContext } from './request-context';
import { MAX_ERRORS } from '../domain/errors';

const HTTP_STATUS_CODES: Record<number, string> = {
  400: 'invalid_input',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/**
 * The one place where an error becomes an HTTP response: an RFC 9457 problem body (CONTRACT §4).
 * Nothing of an unexpected error reaches the client; it is logged with the request id instead.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  constructor(private readonly realm: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<RequestWithContext>();
    const res = ctx.getResponse<Response>();
    let code: string;
    let detail: string;
    let errors: DomainError['violations'];
    let scope: string | undefined;
    let headers: ErrorHeaders | undefined;

    if (exception instanceof DomainError) {
      code = exception.code;
      detail = exception.detail;
      errors = exception.violations;
      headers = exception.headers;
      scope = (exception as DomainError & { scope?: string }).scope;
      if (!ERROR_CATALOGUE[code]) {
        requestLog(req, this.logger).error({ err: exception, requestId: req.id }, `unknown error code ${code}`);
        code = 'internal_error';
        detail = 'An internal error occurred';
        errors = undefined;
        headers = undefined;
      } else if (exception instanceof ServiceUnavailableError && exception.cause !== undefined) {
        // a database failure a repository translated (CONTRACT §3); the driver's error goes to the log
        requestLog(req, this.logger).warn({ err: exception.cause, requestId: req.id }, 'database unavailable');
      }
    } else if (exception instanceof HttpException && HTTP_STATUS_CODES[exception.getStatus()]) {
      code = HTTP_STATUS_CODES[exception.getStatus()];
      detail = code === 'not_found' ? `No route ${req.method} ${req.path}` : ERROR_CATALOGUE[code].title;
      if (code === 'rate_limited' || code === 'service_unavailable') headers = SERVICE_UNAVAILABLE_RETRY_AFTER;
    } else if (isServiceUnavailable(exception)) {
      // CONTRACT §3: a lost connection, an unreachable database or a lock wait that ran out, thrown by
      // a database call outside the repositories' translation (e.g. a gate's refusal)
      code = 'service_unavailable';
      detail = 'The service cannot complete the request now; retry later';
      headers = SERVICE_UNAVAILABLE_RETRY_AFTER;
      requestLog(req, this.logger).warn({ err: exception, requestId: req.id }, 'database unavailable');
    } else {
      code = 'internal_error';
      detail = 'An internal error occurred';
      requestLog(req, this.logger).error({ err: exception, requestId: req.id }, 'unhandled error');
    }

    const { title } = ERROR_CATALOGUE[code];
    const status = (exception instanceof DomainError && code === exception.code && exception.status) || ERROR_CATALOGUE[code].status;
    (res.locals as ObservedLocals).problemCode = code; // counted by the metrics middleware
    if (res.headersSent) {
      // CONTRACT §20: the answer is already under way and cannot become a problem; the client sees a cut-off
      // body at once, never a connection left open
      res.destroy();
      return;
    }
    if (status === 401) {
      res.setHeader(
        'WWW-Authenticate',
        req.tokenSent || code !== 'missing_token' ? `Bearer realm="${this.realm}", error="invalid_token"` : `Bearer realm="${this.realm}"`,
      );
    } else if (code === 'insufficient_scope') {
      res.setHeader('WWW-Authenticate', `Bearer realm="${this.realm}", error="insufficient_scope", scope="${scope ?? ''}"`);
    }
    if (headers) for (const name in headers) res.setHeader(name, headers[name]);
    const body: Record<string, unknown> = {
      type: `urn:partner-api:error:${code}`,
      title,
      status,
      code,
      detail,
    };
    if (errors && errors.length > MAX_ERRORS) {
      // CONTRACT §4: at most 100 entries, the first in body order; detail states the total
      body.detail = `${detail} (${errors.length} violations; the first ${MAX_ERRORS} are listed)`;
      errors = errors.slice(0, MAX_ERRORS);
    }
    if (errors && errors.length > 0) {
      body.errors = errors;
      // the request log's pointers (CONTRACT §15), read when the response has finished
      (res.locals as ObservedLocals).problemPointers = errors.map((e) => e.pointer);
    }
    body.request_id = req.id;
    res.status(status).type('application/problem+json').send(JSON.stringify(body));
  }
}

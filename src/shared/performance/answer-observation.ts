// Performance trick 2 of docs/adr/0013 (gain, removal): patches the listener's `res.json` instead of a Nest interceptor.
// Held by test/e2e/observability.e2e-spec.ts (operation id on the log line, the replays metric).
import type { Express, Response } from 'express';
import type { ObservedLocals } from '../http/observed-locals';
import type { ObservedRequest } from '../logging/http-logger';

/**
 * Notes what a handler answered, for the request's log line and the metrics: the operation id of a
 * write (or of the receipt looked up) and whether the answer was an idempotent replay. It is hooked
 * into the listener's own Express response prototype (`app.response`, Express's extension point;
 * Nest answers an object with `res.json`) rather than being a global Nest interceptor, which wraps
 * every handler call in an rxjs pipeline of several objects and closures per request (its cost: ADR 0013).
 */
export function observeJsonAnswers(app: Express): void {
  const response = app.response as Response;
  const json = response.json;
  response.json = function observedJson(this: Response, body?: unknown) {
    if (body !== null && typeof body === 'object') {
      const { operation_id: operationId, replayed } = body as { operation_id?: unknown; replayed?: unknown };
      if (typeof operationId === 'string') (this.req as ObservedRequest).operationId = operationId;
      if (replayed === true) (this.locals as ObservedLocals).replayed = true;
    }
    return json.call(this, body);
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

export type Listener = 'partner' | 'console';

/** What the auth guard and the answer observation leave on a request for its log line. */
export interface ObservedRequest extends IncomingMessage {
  caller?: { organizationId: string; appId: string; environment: string };
  /** the operation id a write answered with (answer-observation.ts) */
  operationId?: string;
  /** route parameters, as Express matched them (a receipt look-up names its operation id there) */
  params?: Record<string, string>;
}

/**
 * Who the request was for, once known: read when the response finishes, so the completion line
 * carries what authentication and the handler established.
 */
export function requestBindings(req: ObservedRequest): Record<string, string> {
  const out: Record<string, string> = {};
  if (req.caller) {
    out.organization_id = req.caller.organizationId;
    out.app_id = req.caller.appId;
    out.environment = req.caller.environment;
  }
  const operationId = req.operationId ?? req.params?.operationId;
  if (operationId) out.operation_id = operationId;
  return out;
}

/** Told of every finished request with its duration in ms (the metrics, the developer console's request log); it must only count or queue. */
export type CompletionHook = (req: ObservedRequest & { id?: string; originalUrl?: string }, res: ServerResponse, durationMs: number) => void;

/**
 * One completion line per request, on the listener's own logger (so every line names its listener):
 * request id, method, path, status, time and the caller's ids. The line is built when the response
 * has finished and only when its level is enabled; nothing is allocated per request beyond the one
 * finish listener (no child logger per request, as pino-http makes). The completion hooks (metrics,
 * request log) run from the same listener with the same duration: one listener and one clock reading
 * per request for all of them. `req.log` is the listener's logger, for errors logged while answering
 * (request-log.ts; those lines carry the request id).
 */
export function httpLogger(root: Logger, listener: Listener, hooks: readonly CompletionHook[] = []) {
  const log = root.child({ listener });
  const [first, second, ...rest] = hooks;
  return (req: ObservedRequest & { id?: string; originalUrl?: string; log?: Logger }, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    req.log = log;
    res.once('finish', () => {
      const durationMs = performance.now() - started;
      if (first) first(req, res, durationMs);
      if (second) second(req, res, durationMs);
      for (const hook of rest) hook(req, res, durationMs);
      const level = res.statusCode >= 500 ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      log[level](
        {
          req: { id: req.id ?? '', method: req.method ?? '', url: req.originalUrl ?? req.url ?? '' },
          ...requestBindings(req),
          res,
          responseTime: Math.round(durationMs),
        },
        'request completed',
      );
    });
    next();
  };
}

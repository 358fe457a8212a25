import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { LOG_SERIALIZERS } from './root-logger';

export type Listener = 'partner' | 'console';

/** What the auth guard and the observation interceptor leave on a request for its log line. */
export interface ObservedRequest extends IncomingMessage {
  caller?: { organizationId: string; appId: string; environment: string };
  operationId?: string;
}

/**
 * Who the request was for, once known: pino-http evaluates this again when the response finishes,
 * so the completion line carries what authentication and the handler established.
 */
export function requestBindings(req: ObservedRequest): Record<string, string> {
  const out: Record<string, string> = {};
  if (req.caller) {
    out.organization_id = req.caller.organizationId;
    out.app_id = req.caller.appId;
    out.environment = req.caller.environment;
  }
  if (req.operationId) out.operation_id = req.operationId;
  return out;
}

/** One pino-http per listener, so every request line names its own listener. */
export function httpLogger(root: Logger, listener: Listener) {
  return pinoHttp({
    logger: root.child({ listener }),
    // the request id middleware ran first (CONTRACT §3)
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? '',
    customProps: (req: IncomingMessage) => requestBindings(req as ObservedRequest),
    serializers: LOG_SERIALIZERS,
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}

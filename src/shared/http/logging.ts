import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Structured JSON logs with the request id. Requests are logged by method, path and status only:
 * never headers (Authorization), tokens or bodies.
 */
export function loggerParams(level: string, listener: 'partner' | 'console', stream?: DestinationStream): Params {
  return {
    pinoHttp: [
      {
        level,
        base: { listener },
        genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
        customProps: () => ({}),
        serializers: {
          req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          err: (err: Error & { code?: string }) => ({ type: err.name, message: err.message, code: err.code, stack: err.stack }),
        },
        redact: { paths: ['req.headers', 'res.headers', 'token', 'secret', 'totp_secret'], remove: true },
        customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
          err || res.statusCode >= 500 ? 'error' : 'info',
      },
      stream as DestinationStream,
    ].filter((x) => x !== undefined) as unknown as Params['pinoHttp'],
  };
}

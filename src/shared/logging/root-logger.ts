import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * Never headers (Authorization), tokens or bodies: requests are logged by method, path and status. The
 * redaction is a second line of defence for objects logged by hand.
 */
export const LOG_SERIALIZERS = {
  req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  err: (err: Error & { code?: string }) => ({ type: err.name, message: err.message, code: err.code, stack: err.stack }),
};

const REDACT = {
  paths: ['req.headers', 'res.headers', 'headers', 'authorization', 'token', 'secret', 'totp_secret', 'totp_code', '*.token', '*.secret', '*.totp_secret'],
  remove: true,
};

/**
 * pino-pretty is a dev dependency: loaded only when stdout is a terminal and it is installed (not in the
 * production image), as a synchronous in-process stream so that lines are not lost at exit.
 */
function prettyStream(): DestinationStream | null {
  if (!process.stdout.isTTY) return null;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as (o: object) => DestinationStream;
    return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return null;
  }
}

/** The process's one logger: JSON lines on stdout, or readable ones on a terminal. */
export function createRootLogger(level: string, stream?: DestinationStream): Logger {
  const options: LoggerOptions = { level, serializers: LOG_SERIALIZERS, redact: REDACT };
  const destination = stream ?? prettyStream();
  return destination ? pino(options, destination) : pino(options);
}

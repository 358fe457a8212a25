import type { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'pino';

interface Writer {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The request's own logger (`req.log`, set by http-logger.ts: its listener), else Nest's: an error
 * logged while answering a request names the listener that answered it.
 */
export function requestLog(req: unknown, fallback: NestLogger): Writer {
  const log = (req as { log?: Logger }).log;
  if (log) return { error: (obj, msg) => log.error(obj, msg), warn: (obj, msg) => log.warn(obj, msg) };
  return { error: (obj, msg) => fallback.error(obj, msg), warn: (obj, msg) => fallback.warn(obj, msg) };
}

import type { Server, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { LiveSet } from '../performance/live-set';

export interface ShutdownLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface StopOptions {
  /** SHUTDOWN_GRACE_SECONDS in ms: everything below happens inside it. */
  graceMs: number;
  /** Runs at once when the stop begins, beside the drain (the webhook dispatcher stops claiming and finishes its sends). */
  onStopping?: () => Promise<void>;
  logger?: ShutdownLogger;
}

const READY_PATH = '/health/ready';
/** Left at the end of the grace for answering what is still running and for closing the stores. */
const FINAL_MARGIN_MS = 1_500;

/**
 * The graceful stop of CONTRACT §3, for every listener of one instance:
 * - from the signal on, `GET /health/ready` is 503 (the load balancer takes the instance out) and every
 *   response carries `Connection: close`, also those of requests accepted before the signal that are
 *   still running, so a keep-alive client gets its answer and then a closed connection, never a cut;
 * - the listeners accept no new connection (`server.close()`), and idle keep-alive connections are
 *   closed (`closeIdleConnections()`; again while draining, for connections that turn idle);
 * - requests in flight finish; what is still running near the end of the grace is answered 503
 *   `service_unavailable` with `Retry-After` (its transaction is rolled back when the store closes,
 *   so nothing of it commits and the client's retry with the same key is safe), then the rest closes.
 */
export class GracefulShutdown {
  private stopping = false;
  /** not a `Set`: see LiveSet, why */
  private readonly inFlight = new LiveSet<ServerResponse>();
  private readonly servers: Server[] = [];

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Registers a listener's server (after listen). */
  track(server: Server): void {
    this.servers.push(server);
  }

  /** The first middleware of each listener, after the request id. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const forget = this.inFlight.add(res);
      res.on('finish', forget);
      res.on('close', forget);
      if (this.stopping) {
        res.setHeader('Connection', 'close');
        if (req.method === 'GET' && req.path === READY_PATH) {
          unavailable(res, (req as Request & { id?: string }).id, 'The instance is stopping');
          return;
        }
      }
      next();
    };
  }

  /** Drains and closes the tracked listeners within the grace; resolves when they are closed. */
  async stop(options: StopOptions): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const started = Date.now();
    const drainUntil = started + Math.max(options.graceMs - FINAL_MARGIN_MS, options.graceMs / 2);
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    const closed = this.servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    );
    const idleSweep = setInterval(() => this.servers.forEach((s) => s.closeIdleConnections()), 100);
    const stoppingHook = (options.onStopping?.() ?? Promise.resolve()).catch((err: Error) => options.logger?.warn(`stopping hook failed: ${err.message}`));
    try {
      const drained = await Promise.race([Promise.all([...closed, stoppingHook]).then(() => true), sleep(drainUntil - Date.now()).then(() => false)]);
      if (drained) return;
      const unanswered = [...this.inFlight].filter((res) => !res.headersSent);
      if (unanswered.length > 0) options.logger?.warn(`grace running out: answering ${unanswered.length} request(s) in flight with 503`);
      for (const res of unanswered) unavailable(res, undefined, 'The instance is stopping; retry');
      await sleep(200); // let those answers flush
      for (const server of this.servers) server.closeAllConnections();
    } finally {
      clearInterval(idleSweep);
    }
  }
}

function unavailable(res: ServerResponse, requestId: string | undefined, detail: string): void {
  if (res.headersSent) return;
  const body = JSON.stringify({
    type: 'urn:partner-api:error:service_unavailable',
    title: 'The service is unavailable',
    status: 503,
    code: 'service_unavailable',
    detail,
    request_id: requestId ?? (res.getHeader('X-Request-Id') as string | undefined),
  });
  res.statusCode = 503;
  res.setHeader('Connection', 'close');
  res.setHeader('Retry-After', '5');
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}

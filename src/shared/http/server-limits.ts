import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { expressMessageClasses } from '../performance/express-prototypes';

/** CONTRACT §3: a client must have sent its complete request headers within this time… */
export const HEADERS_TIMEOUT_MS = 10_000;
/** …and its complete request (headers and body) within this one; otherwise 408 and disconnect. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often Node looks for connections past those timeouts (its default, 30 s, would double them). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;
/** CONTRACT §20: an answer the client takes no bytes of for this long is abandoned and its connection closed. */
export const WRITE_PROGRESS_TIMEOUT_MS = 10_000;

/**
 * CONTRACT §20 "Clients that do not read": a connection with answer bytes waiting to be written whose client
 * has taken none of them for `timeoutMs` is destroyed — the response closes, and with it its place in flight,
 * its download's reads and its memory. Looked at every second (as Node looks at the request timeouts): bytes
 * waiting are `writableLength` (Node's buffer and libuv's queue), bytes taken are those written past them.
 * A connection with nothing waiting (reading a request, computing an answer, idle) is not this timeout's.
 */
export function abandonStalledWrites(server: Server, timeoutMs: number = WRITE_PROGRESS_TIMEOUT_MS): void {
  const watched = new Map<Socket, { taken: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { taken: 0, since: Date.now() });
    socket.once('close', () => watched.delete(socket));
  });
  let sweep: NodeJS.Timeout | null = null;
  server.on('listening', () => {
    if (sweep) return;
    sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, seen] of watched) {
        const taken = socket.bytesWritten - socket.writableLength;
        if (socket.writableLength === 0 || taken !== seen.taken) {
          seen.taken = taken;
          seen.since = now;
        } else if (now - seen.since >= timeoutMs) {
          watched.delete(socket);
          socket.destroy();
        }
      }
    }, CONNECTIONS_CHECKING_INTERVAL_MS);
    sweep.unref();
  });
  server.on('close', () => {
    // 'close' comes once the last connection of an earlier listen ended, possibly after a new listen
    if (server.listening) return;
    if (sweep) clearInterval(sweep);
    sweep = null;
  });
}

/**
 * An Express application with exact routing (CONTRACT §3): paths are case-sensitive and a trailing
 * slash is a different path, so `/API/PARTNER/SANDBOX/V1/journal/prepare` is 404 like any unknown
 * path. Set before the first route exists (Express builds its router with these settings).
 */
export function exactRoutingExpress(): express.Express {
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.disable('x-powered-by');
  // no ETag: answers are Cache-Control: no-store, and the hash would cost a SHA-1 of every body
  app.disable('etag');
  return app;
}

/**
 * Nest's Express adapter, with the HTTP server built with CONTRACT §3's limits: slow senders are cut
 * off (Node answers 408 when it still can and closes the connection), at most `maxConnections`
 * client connections are held (further ones are closed at once by Node), and a client that stops taking
 * its answer is cut off (CONTRACT §20, abandonStalledWrites).
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(
    instance: express.Express,
    private readonly maxConnections: number,
  ) {
    super(instance);
  }

  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    // Nest's own set-up (e.g. return503OnClosing) runs; its server is replaced before anything listens
    super.initHttpServer({ ...options, forceCloseConnections: false });
    const server = createServer(
      {
        // made with Express's prototypes (ADR 0013, trick 9)
        ...expressMessageClasses(this.getInstance()),
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      },
      this.getInstance(),
    );
    server.maxConnections = this.maxConnections;
    abandonStalledWrites(server);
    this.setHttpServer(server);
    if (options?.forceCloseConnections) (this as unknown as { trackOpenConnections(): void }).trackOpenConnections();
  }
}

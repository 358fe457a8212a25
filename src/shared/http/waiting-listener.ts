import { newRequestId } from './request-id.middleware';
import { createServer } from 'node:http';
import { ERROR_CATALOGUE } from './error-catalogue';

export interface WaitingListener {
  close(): Promise<void>;
}

/**
 * The partner port while the service cannot start because no database host takes writes yet (all
 * standbys before a promotion, the server still starting; CONTRACT §3, §16): `GET /health/live` 200,
 * everything else — readiness included — 503 `service_unavailable` with Retry-After, never a refused
 * connection an orchestrator would read as a dead process. main.ts closes it just before the service
 * listens on the same port.
 */
export async function openWaitingListener(host: string, port: number): Promise<WaitingListener> {
  const { status, title } = ERROR_CATALOGUE.service_unavailable;
  const server = createServer((req, res) => {
    req.resume();
    const requestId = newRequestId();
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Connection', 'close');
    if (req.method === 'GET' && req.url?.split('?')[0] === '/health/live') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    const body = {
      type: 'urn:partner-api:error:service_unavailable',
      title,
      status,
      code: 'service_unavailable',
      detail: 'The database accepts no writes yet; retry later',
      request_id: requestId,
    };
    res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Retry-After': '5' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

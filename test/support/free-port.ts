import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port the OS has just handed out (listen on port 0), for a service started as its own process. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

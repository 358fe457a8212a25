import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { freePort } from '../support/free-port';

/**
 * The ports tests start services on (test/support/free-port.ts). A CI run lost a service start to
 * `listen EADDRINUSE 127.0.0.1:39761`: the port came from `listen(0)`, was closed, and another
 * worker's `listen(0)` took it before the service bound it. These ports lie below the kernel's
 * ephemeral range, so no `listen(0)` can take them.
 */
describe('ports for a service a test starts', () => {
  const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

  it('lie below the ephemeral range and are not handed out twice in a row', async () => {
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralLow);
    }
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('skip a port something listens on', async () => {
    const held: Server[] = [];
    try {
      // hold the next several ports this worker would hand out, then ask for one more
      const first = await freePort();
      const listenOn = (port: number) =>
        new Promise<boolean>((resolve) => {
          const server = createServer();
          server.once('error', () => resolve(false));
          server.listen(port, '127.0.0.1', () => {
            held.push(server);
            resolve(true);
          });
        });
      const heldPorts: number[] = [];
      for (let port = first + 1; port <= first + 5; port++) if (await listenOn(port)) heldPorts.push(port);
      expect(heldPorts.length).toBeGreaterThan(0);
      const next = await freePort();
      expect(heldPorts).not.toContain(next);
      expect(await listenOn(next)).toBe(true);
    } finally {
      await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
    }
  });
});

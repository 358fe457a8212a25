import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { aSandboxProject, SANDBOX } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Finding 5 (issue 14): slow clients pinned memory. CONTRACT §3: complete headers within 10 s, the
 * complete body within 30 s, else a disconnect (408 where an answer can still be written); at most
 * MAX_CONNECTIONS client connections per instance. Bounded: 50 slow connections of each kind.
 */

interface Observed {
  closedAfterMs: number;
  data: string;
}

/** Opens a connection, writes `chunk`, keeps it open and reports when the server closes it. */
function slowClient(port: number, chunk: string, giveUpMs: number): Promise<Observed> {
  return new Promise((resolve) => {
    const started = Date.now();
    let data = '';
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(chunk));
    socket.setEncoding('latin1');
    socket.on('data', (d) => (data += d));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedAfterMs: Infinity, data });
    }, giveUpMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, data });
    });
  });
}

async function listening(app: TestApp): Promise<number> {
  const server = app.apps.partner.getHttpServer() as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('finding 5: slow clients and connection cap (CONTRACT §3)', () => {
  let app: TestApp;
  let port: number;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await aSandboxProject(app)).token;
    port = await listening(app);
  });
  afterAll(() => app.close());

  it('cuts off 50 clients stuck in their headers after 10 s and 50 stuck in their body after 30 s, with 408', async () => {
    const partialHeaders = `POST ${SANDBOX}/journal/prepare HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
    const partialBody =
      `POST ${SANDBOX}/journal/prepare HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 262144\r\n\r\n{"posting_date":"2026-11-20","lines":[`;
    const [headers, bodies] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, () => slowClient(port, partialHeaders, 20_000))),
      Promise.all(Array.from({ length: 50 }, () => slowClient(port, partialBody, 40_000))),
    ]);
    for (const h of headers) {
      expect(h.closedAfterMs).toBeGreaterThanOrEqual(9_500);
      expect(h.closedAfterMs).toBeLessThan(13_000);
      expect(h.data).toMatch(/^HTTP\/1\.1 408 /);
    }
    for (const b of bodies) {
      expect(b.closedAfterMs).toBeGreaterThanOrEqual(29_500);
      expect(b.closedAfterMs).toBeLessThan(33_000);
      expect(b.data === '' || /^HTTP\/1\.1 408 /.test(b.data)).toBe(true);
    }
    // and the instance still answers
    expect((await app.partner().get('/health/live')).status).toBe(200);
  }, 180_000);
});

describe('MAX_CONNECTIONS (CONTRACT §2, §3)', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    app = await createTestApp({ maxConnections: 5 });
    port = await listening(app);
  });
  afterAll(() => app.close());

  it('holds at most 5 client connections and refuses the 6th; a freed slot serves again', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      held.push(
        await new Promise<Socket>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 200));
    const sixth = await slowClient(port, 'GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n', 3_000);
    expect(sixth.closedAfterMs).toBeLessThan(3_000);
    expect(sixth.data).toBe('');

    held.pop()!.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const again = await slowClient(port, 'GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 3_000);
    expect(again.data).toMatch(/^HTTP\/1\.1 200 /);
    for (const s of held) s.destroy();
  });
});

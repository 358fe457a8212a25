import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { AllowedNetworks, EMBEDDED_STORE_NETWORKS, NO_NETWORKS, parseAllowedNetworks, parseNetworkRange } from '../../../shared/domain/allowed-networks';
import { generateWebhookSecret } from '../domain/webhook-secret';
import { HttpWebhookSender, MAX_RESPONSE_BYTES, type ResolvedAddress } from './http-webhook-sender';

interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real receiver on 127.0.0.1 that records every request it gets. */
async function aReceiver(handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(204).end()) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof aReceiver>>;

describe('HttpWebhookSender', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'operation.completed', timestamp: '2026-11-22T10:00:00.000Z', data: { id: 'op_1', note: 'æøå ✓' } });
  const anInput = (url: string, overrides: Partial<{ secret: string; msgId: string; timestamp: Date; body: string }> = {}) => ({
    url,
    secret,
    msgId: 'msg_2fWzTQ1nXz0kLx',
    timestamp: new Date(),
    body,
    ...overrides,
  });
  const permissive = (opts: { timeoutMs?: number; resolve?: (host: string) => Promise<ResolvedAddress[]> } = {}) =>
    new HttpWebhookSender({ allowedNetworks: parseAllowedNetworks(EMBEDDED_STORE_NETWORKS), ...opts });
  const strict = (opts: { timeoutMs?: number; resolve?: (host: string) => Promise<ResolvedAddress[]> } = {}) =>
    new HttpWebhookSender({ allowedNetworks: NO_NETWORKS, ...opts });

  const receivers: Receiver[] = [];
  const receiver = async (handler?: Parameters<typeof aReceiver>[0]) => {
    const r = await aReceiver(handler);
    receivers.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  describe('delivery', () => {
    it('POSTs the exact body with Standard Webhooks headers that verify with the secret', async () => {
      const r = await receiver();
      const timestamp = new Date(Date.now() - 1500);
      const result = await permissive().send(anInput(`${r.url}?app=1`, { timestamp }));

      expect(result).toEqual({ ok: true, status: 204, address: '127.0.0.1', durationMs: expect.any(Number) });
      expect(r.hits).toHaveLength(1);
      const [hit] = r.hits;
      expect(hit.method).toBe('POST');
      expect(hit.url).toBe('/hook?app=1');
      expect(hit.body).toBe(body);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(hit.headers['user-agent']).toBe('partner-api-webhooks/1');
      expect(hit.headers['content-length']).toBe(String(Buffer.byteLength(body)));
      expect(hit.headers['webhook-id']).toBe('msg_2fWzTQ1nXz0kLx');
      expect(hit.headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
      expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).toEqual(JSON.parse(body));
    });

    it('signs with the endpoint secret only: another secret does not verify', async () => {
      const r = await receiver();
      await permissive().send(anInput(r.url));
      expect(() => new Webhook(generateWebhookSecret()).verify(r.hits[0].body, r.hits[0].headers as Record<string, string>)).toThrow();
    });

    it('after a rotation, signs with the new and the previous secret, new first, space-separated; each verifies alone', async () => {
      const r = await receiver();
      const previous = generateWebhookSecret();
      await permissive().send({ ...anInput(r.url), previousSecrets: [previous] });
      const headers = r.hits[0].headers as Record<string, string>;
      const [first, second, ...more] = headers['webhook-signature'].split(' ');
      expect(more).toEqual([]);
      expect(first).toMatch(/^v1,/);
      expect(second).toMatch(/^v1,/);
      // each secret's verification finds its own entry of the list
      expect(new Webhook(secret).verify(r.hits[0].body, headers)).toEqual(JSON.parse(body));
      expect(new Webhook(previous).verify(r.hits[0].body, headers)).toEqual(JSON.parse(body));
      // and the first entry is the new secret's
      expect(new Webhook(secret).verify(r.hits[0].body, { ...headers, 'webhook-signature': first })).toEqual(JSON.parse(body));
      expect(() => new Webhook(previous).verify(r.hits[0].body, { ...headers, 'webhook-signature': first })).toThrow();
    });

    it('sends the same webhook-id and body on every attempt', async () => {
      const r = await receiver((_req, res) => res.writeHead(503).end());
      const sender = permissive();
      await sender.send(anInput(r.url));
      await sender.send(anInput(r.url));
      expect(r.hits).toHaveLength(2);
      expect(r.hits[1].headers['webhook-id']).toBe(r.hits[0].headers['webhook-id']);
      expect(r.hits[1].body).toBe(r.hits[0].body);
    });

    it.each([200, 201, 202, 204, 299])('counts %i as delivered', async (status) => {
      const r = await receiver((_req, res) => res.writeHead(status).end('thanks'));
      expect(await permissive().send(anInput(r.url))).toMatchObject({ ok: true, status });
    });

    it.each([400, 404, 410, 429, 500, 503])('reports %i as a failure', async (status) => {
      const r = await receiver((_req, res) => res.writeHead(status).end('boom'));
      expect(await permissive().send(anInput(r.url))).toMatchObject({ ok: false, status, error: `http_${status}` });
    });
  });

  describe('redirects', () => {
    it.each([301, 302, 303, 307, 308])('does not follow a %i: it is a failure and the target sees nothing', async (status) => {
      const target = await receiver((_req, res) => res.writeHead(200).end());
      const redirect = await receiver((_req, res) => res.writeHead(status, { location: target.url }).end());
      expect(await permissive().send(anInput(redirect.url))).toMatchObject({ ok: false, status, error: `http_${status}` });
      expect(redirect.hits).toHaveLength(1);
      expect(target.hits).toHaveLength(0);
    });
  });

  describe('time and size limits', () => {
    it('times out a receiver that never answers', async () => {
      const r = await receiver(() => undefined);
      const result = await permissive({ timeoutMs: 300 }).send(anInput(r.url));
      expect(result).toEqual({ ok: false, error: 'timeout', address: '127.0.0.1', durationMs: expect.any(Number) });
      expect(result.durationMs).toBeGreaterThanOrEqual(250);
      expect(result.durationMs).toBeLessThan(2000);
    });

    it('times out a host name that takes too long to resolve, counted in the same budget', async () => {
      const result = await permissive({ timeoutMs: 300, resolve: () => new Promise(() => undefined) }).send(anInput('https://slow-dns.example/hook'));
      expect(result).toMatchObject({ ok: false, error: 'timeout' });
      expect(result.durationMs).toBeLessThan(2000);
    });

    it('defaults to a 10 s budget', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      try {
        const pending = permissive({ resolve: () => new Promise(() => undefined) }).send(anInput('https://slow-dns.example/hook'));
        let settled = false;
        void pending.then(() => (settled = true));
        await jest.advanceTimersByTimeAsync(9_900);
        expect(settled).toBe(false);
        await jest.advanceTimersByTimeAsync(200);
        await expect(pending).resolves.toMatchObject({ ok: false, error: 'timeout' });
      } finally {
        jest.useRealTimers();
      }
    });

    it('keeps the status of an answer whose body never ends', async () => {
      const r = await receiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial'); // and never end
      });
      const result = await permissive({ timeoutMs: 300 }).send(anInput(r.url));
      expect(result).toMatchObject({ ok: true, status: 200 });
    });

    it(`reads at most ${MAX_RESPONSE_BYTES / 1024} KiB of an endless response body, then hangs up`, async () => {
      let written = 0;
      let hungUp = false;
      const r = await receiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          while (!hungUp && written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        res.on('close', () => (hungUp = true));
        pump();
      });
      const result = await permissive({ timeoutMs: 5_000 }).send(anInput(r.url));
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(result.durationMs).toBeLessThan(2_000); // cut off at the limit, not at the timeout
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hungUp).toBe(true);
      expect(written).toBeLessThan(64 * 1024 * 1024);
    });
  });

  describe('address checks (CONTRACT §9)', () => {
    it.each([
      ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/hook`],
      ['localhost', (port: number) => `http://localhost:${port}/hook`],
      ['localhost.', (port: number) => `http://localhost.:${port}/hook`],
      ['[::1]', (port: number) => `http://[::1]:${port}/hook`],
      ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`],
      ['2130706433', (port: number) => `http://2130706433:${port}/hook`],
    ])('refuses %s without connecting when private networks are not allowed', async (_name, urlOf) => {
      const r = await receiver((_req, res) => res.writeHead(200).end());
      const result = await strict().send(anInput(urlOf(r.port)));
      expect(result).toEqual({ ok: false, error: 'forbidden_address', durationMs: expect.any(Number) });
      expect(r.hits).toHaveLength(0);
    });

    it('refuses a name that resolves to a private address, judged on the resolved address', async () => {
      const resolve = jest.fn(async () => [{ address: '10.0.0.7', family: 4 }]);
      expect(await strict({ resolve }).send(anInput('https://hooks.partner.example/hook'))).toMatchObject({
        ok: false,
        error: 'forbidden_address',
      });
      expect(resolve).toHaveBeenCalledWith('hooks.partner.example');
    });

    it('refuses a name if ANY of its addresses is forbidden', async () => {
      const resolve = async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ];
      expect(await strict({ resolve }).send(anInput('https://mixed.example/hook'))).toMatchObject({ ok: false, error: 'forbidden_address' });
    });

    it('refuses what WEBHOOK_ALLOWED_NETWORKS does not list, and link-local even when a range was made to hold it (CONTRACT §2)', async () => {
      const r = await receiver();
      const tenOnly = new HttpWebhookSender({ allowedNetworks: parseAllowedNetworks('10.0.0.0/8') });
      expect(await tenOnly.send(anInput(r.url))).toMatchObject({ ok: false, error: 'forbidden_address' });
      expect(await tenOnly.send(anInput(`http://localhost:${r.port}/hook`))).toMatchObject({ ok: false, error: 'forbidden_address' });
      const rebound = new HttpWebhookSender({
        allowedNetworks: parseAllowedNetworks('10.0.0.0/8'),
        resolve: async () => [{ address: '192.168.1.7', family: 4 }],
      });
      expect(await rebound.send(anInput('https://hooks.partner.example/hook'))).toMatchObject({ ok: false, error: 'forbidden_address' });
      // the configuration refuses to list link-local; a list built around that check still never reaches it
      const everything = new AllowedNetworks(['0.0.0.0/0', '::/0'].map((t) => parseNetworkRange(t)!));
      for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', 'fd00:ec2::254', '0.0.0.0', '::']) {
        const metadata = new HttpWebhookSender({ allowedNetworks: everything, resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }] });
        expect(await metadata.send(anInput('https://metadata.partner.example/latest'))).toMatchObject({ ok: false, error: 'forbidden_address' });
      }
      expect(r.hits).toHaveLength(0);
    });

    it("delivers to loopback when WEBHOOK_ALLOWED_NETWORKS lists it (the embedded store's default)", async () => {
      const r = await receiver();
      expect(await permissive().send(anInput(r.url))).toMatchObject({ ok: true, status: 204 });
      expect(await permissive().send(anInput(`http://localhost:${r.port}/hook`))).toMatchObject({ ok: true, status: 204 });
      expect(r.hits).toHaveLength(2);
    });

    it('connects to the vetted address, not to a second DNS answer, and keeps the name in the Host header', async () => {
      const r = await receiver();
      const resolve = jest.fn(async () => [{ address: '127.0.0.1', family: 4 }]);
      // `.invalid` never resolves in real DNS (RFC 6761): reaching the receiver proves the socket used our answer.
      const result = await permissive({ resolve }).send(anInput(`http://hooks.partner.invalid:${r.port}/hook`));
      expect(result).toMatchObject({ ok: true, status: 204 });
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(r.hits[0].headers.host).toBe(`hooks.partner.invalid:${r.port}`);
    });

    it('speaks TLS with the host name as SNI to the pinned address, and verifies the certificate', async () => {
      const serverNames: string[] = [];
      const tlsServer = createTlsServer({
        SNICallback: (name, cb) => {
          serverNames.push(name);
          cb(new Error('no certificate for this test'), undefined);
        },
      });
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      try {
        const port = (tlsServer.address() as AddressInfo).port;
        const result = await permissive({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] }).send(
          anInput(`https://hooks.partner.invalid:${port}/hook`),
        );
        expect(result.ok).toBe(false);
        expect(serverNames).toEqual(['hooks.partner.invalid']);
      } finally {
        await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      }
    });
  });

  describe('never throws', () => {
    it.each([
      ['not a url', 'invalid_url'],
      ['ftp://example.com/hook', 'invalid_url'],
      ['file:///etc/passwd', 'invalid_url'],
      ['https://user:pw@example.com/hook', 'invalid_url'],
    ])('refuses %s as %s', async (url, error) => {
      await expect(permissive().send(anInput(url))).resolves.toMatchObject({ ok: false, error });
    });

    it('reports a host name that does not resolve', async () => {
      const resolve = async (): Promise<ResolvedAddress[]> => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
      };
      await expect(permissive({ resolve }).send(anInput('https://nowhere.invalid/hook'))).resolves.toMatchObject({ ok: false, error: 'dns_failure' });
      await expect(permissive({ resolve: async () => [] }).send(anInput('https://empty.invalid/hook'))).resolves.toMatchObject({
        ok: false,
        error: 'dns_failure',
      });
    });

    it('reports a refused connection by its code', async () => {
      const r = await aReceiver();
      await r.close(); // the port is now closed
      await expect(permissive().send(anInput(r.url))).resolves.toMatchObject({ ok: false, error: 'ECONNREFUSED' });
    });

    it('reports a receiver that hangs up without answering', async () => {
      const r = await receiver((req) => req.socket.destroy());
      const result = await permissive().send(anInput(r.url));
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^[A-Z0-9_]+$/);
    });

    it.each([
      ['not base64 at all', 'whsec_***not base64***'],
      ['empty', 'whsec_'],
    ])('reports a broken secret (%s) without sending or echoing it', async (_case, badSecret) => {
      const r = await receiver();
      const result = await permissive().send(anInput(r.url, { secret: badSecret }));
      expect(result).toMatchObject({ ok: false, error: 'signing_failed' });
      expect(JSON.stringify(result)).not.toContain(badSecret.slice('whsec_'.length) || 'whsec_');
      expect(r.hits).toHaveLength(0);
    });

    it('reports an invalid timestamp', async () => {
      const r = await receiver();
      await expect(permissive().send(anInput(r.url, { timestamp: new Date(Number.NaN) }))).resolves.toMatchObject({
        ok: false,
        error: 'invalid_timestamp',
      });
      expect(r.hits).toHaveLength(0);
    });

    it('never puts the secret in any result', async () => {
      const r = await receiver((_req, res) => res.writeHead(500).end(secret));
      const results = [await permissive().send(anInput(r.url)), await permissive({ timeoutMs: 1 }).send(anInput(r.url)), await strict().send(anInput(r.url))];
      for (const result of results) expect(JSON.stringify(result)).not.toContain(secret.slice('whsec_'.length));
    });
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../domain/webhook-secret';
import { WebhookSender } from './webhook-sender';

async function serve(handler: (req: { headers: IncomingHttpHeaders; body: string }, res: import('node:http').ServerResponse) => void) {
  const hits: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      handler({ headers: req.headers, body }, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, port, hits, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe('WebhookSender', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'operation.completed', timestamp: '2026-11-22T10:00:00.000Z', data: { x: 1 } });
  const input = (url: string) => ({ url, secret, msgId: 'msg_1', timestamp: new Date(), body });

  it('posts the exact body signed per Standard Webhooks', async () => {
    const s = await serve((_r, res) => res.writeHead(204).end());
    try {
      const result = await new WebhookSender({ allowPrivateNetworks: true }).send(input(s.url));
      expect(result).toMatchObject({ ok: true, status: 204 });
      expect(s.hits).toHaveLength(1);
      expect(s.hits[0].body).toBe(body);
      expect(s.hits[0].headers['webhook-id']).toBe('msg_1');
      expect(() => new Webhook(secret).verify(s.hits[0].body, s.hits[0].headers as Record<string, string>)).not.toThrow();
      expect(() => new Webhook(generateWebhookSecret()).verify(s.hits[0].body, s.hits[0].headers as Record<string, string>)).toThrow();
    } finally {
      await s.close();
    }
  });

  it('reports a 500 as a failure', async () => {
    const s = await serve((_r, res) => res.writeHead(500).end('boom'));
    try {
      expect(await new WebhookSender({ allowPrivateNetworks: true }).send(input(s.url))).toMatchObject({ ok: false, status: 500 });
    } finally {
      await s.close();
    }
  });

  it('follows no redirect', async () => {
    const target = await serve((_r, res) => res.writeHead(200).end());
    const redirect = await serve((_r, res) => res.writeHead(302, { location: target.url }).end());
    try {
      expect(await new WebhookSender({ allowPrivateNetworks: true }).send(input(redirect.url))).toMatchObject({ ok: false, status: 302 });
      expect(target.hits).toHaveLength(0);
    } finally {
      await target.close();
      await redirect.close();
    }
  });

  it('times out a slow receiver', async () => {
    const s = await serve(() => undefined); // never answers
    try {
      const result = await new WebhookSender({ allowPrivateNetworks: true, timeoutMs: 300 }).send(input(s.url));
      expect(result).toMatchObject({ ok: false, error: 'timeout' });
      expect(result.durationMs).toBeLessThan(2000);
    } finally {
      await s.close();
    }
  });

  it('refuses loopback addresses at delivery time without connecting, unless private networks are allowed', async () => {
    const s = await serve((_r, res) => res.writeHead(200).end());
    try {
      const strict = new WebhookSender({ allowPrivateNetworks: false });
      expect(await strict.send(input(s.url))).toMatchObject({ ok: false, error: 'forbidden_address' });
      expect(await strict.send(input(`http://localhost:${s.port}/hook`))).toMatchObject({ ok: false, error: 'forbidden_address' });
      expect(s.hits).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});

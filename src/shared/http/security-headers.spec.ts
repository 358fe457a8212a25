import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { helmetApiHeaders, securityHeaders } from './security-headers';

/** The headers of one answer from an Express app with this middleware in front of a fixed JSON answer. */
async function headersSent(middleware: express.RequestHandler, path: string): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.use((_req, res) => res.json({ ok: true }));
  const server = createServer(app as unknown as RequestListener<typeof IncomingMessage, typeof ServerResponse>);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    const out: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    });
    return out;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('securityHeaders: helmet is the definition (CONTRACT §3)', () => {
  it('sends exactly the headers the configured helmet middleware sends on an API answer', async () => {
    const byHelmet = await headersSent(helmetApiHeaders, '/api/partner/sandbox/v1/accounts');
    const replayed = await headersSent(securityHeaders(), '/api/partner/sandbox/v1/accounts');
    expect(replayed).toEqual(byHelmet);
    // and that is helmet's twelve headers with the CSP that allows nothing
    expect(byHelmet['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(byHelmet['x-content-type-options']).toBe('nosniff');
    expect(byHelmet['x-frame-options']).toBe('DENY');
    expect(Object.keys(byHelmet).filter((n) => !['content-type', 'content-length', 'etag'].includes(n))).toHaveLength(12);
  });

  it('gives the documentation pages their own CSP, and only them', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui.css', '/docs?x=1']) {
      expect((await headersSent(securityHeaders(), path))['content-security-policy']).toContain("script-src 'self'");
    }
    for (const path of ['/docsx', '/api/partner/v1/docs', '/doc']) {
      expect((await headersSent(securityHeaders(), path))['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    }
  });
});

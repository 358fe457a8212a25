import { createServer, request, ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';
import { securityHeaders } from '../http/security-headers';
import { writeHeadersOnce } from './headers-written-once';

/**
 * Trick 8 of ADR 0013 is held equal to Node's own header store: each handler below answers through an
 * Express app as the service builds it (security headers first), once with the trick and once
 * without, and the two answers — status, raw headers in order, body — must be the same, as must what
 * the handler read back through the header calls.
 */
type Handler = (req: Request, res: Response) => void;

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

async function answer(handler: Handler, prepared: boolean, method = 'GET', early?: Handler): Promise<Answer> {
  const path = '/api/partner/sandbox/v1/x';
  const app: Express = express();
  app.disable('x-powered-by');
  app.disable('etag');
  if (prepared) writeHeadersOnce(app);
  if (early) app.use((req, res, next) => (early(req, res), next()));
  app.use(securityHeaders());
  app.use((req, res) => handler(req, res));
  const server = createServer(app as unknown as RequestListener<typeof IncomingMessage, typeof ServerResponse>);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method, path }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          const headers: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (!['Date', 'Connection', 'Keep-Alive'].includes(res.rawHeaders[i])) headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          }
          resolve({ status: res.statusCode ?? 0, headers, body });
        });
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const errorCode = (f: () => unknown): string => {
  try {
    f();
    return 'none';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};

const HANDLERS: Record<string, Handler> = {
  'a JSON answer': (_req, res) => void res.status(201).json({ ok: true, text: 'æøå' }),
  'own headers, one set twice, then JSON': (_req, res) => {
    res.setHeader('X-Request-Id', 'first');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('x-request-id', 'second');
    res.json({ ok: true });
  },
  'a fixed header overridden (a page CSP)': (_req, res) => {
    res.setHeader('X-Request-Id', 'a');
    res.setHeader('Content-Security-Policy', "default-src 'self'");
    res.type('html').send('<p>page</p>');
  },
  'a fixed header removed': (_req, res) => {
    res.removeHeader('X-Frame-Options');
    res.json({ ok: true });
  },
  'appendHeader and Vary': (_req, res) => {
    res.vary('Accept-Language');
    res.append('Vary', 'Origin');
    res.appendHeader('Set-Cookie', ['a=1', 'b=2']);
    res.json({ ok: true });
  },
  'a number and an array value': (_req, res) => {
    res.setHeader('X-Count', 3);
    res.setHeader('X-List', ['a', 'b']);
    res.end('x');
  },
  'writeHead with headers of its own': (_req, res) => {
    res.setHeader('X-Request-Id', 'a');
    res.writeHead(503, { 'Retry-After': '5', 'X-Frame-Options': 'SAMEORIGIN' }).end('busy');
  },
  'writeHead with a reason': (_req, res) => {
    res.setHeader('X-Request-Id', 'a');
    res.writeHead(418, 'Short and stout').end();
  },
  'a stream of writes': (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.write('one ');
    res.end('two');
  },
  'no body (204)': (_req, res) => void res.status(204).send(),
  'a writeHead that throws, then an answer': (_req, res) => {
    res.setHeader('X-Request-Id', 'a');
    const thrown = errorCode(() => res.writeHead(99));
    res.status(500).end(thrown);
  },
  'what the header calls read, before and after the write': (_req, res) => {
    res.setHeader('X-Request-Id', 'a');
    const before = {
      get: [res.getHeader('x-content-type-options'), res.getHeader('X-FRAME-OPTIONS'), res.getHeader('x-request-id'), res.getHeader('x-none') ?? null],
      has: [res.hasHeader('Content-Security-Policy'), res.hasHeader('X-Request-Id'), res.hasHeader('x-none')],
      invalid: [
        errorCode(() => res.setHeader('X-Bad', 'a\r\nb')),
        errorCode(() => res.setHeader('Bad Name', 'a')),
        errorCode(() => res.setHeader('X-U', undefined as never)),
      ],
    };
    res.status(200).end(JSON.stringify(before));
    // after the write: what the lists read and what a late call throws, kept aside and compared by the test
    afterWrite.push({
      names: res.getHeaderNames(),
      raw: (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames(),
      all: { ...res.getHeaders() },
      get: res.getHeader('x-request-id') ?? null,
      late: errorCode(() => res.setHeader('X-Late', '1')),
      remove: errorCode(() => res.removeHeader('X-Request-Id')),
    });
  },
  'HEAD on a JSON answer': (_req, res) => void res.json({ ok: true }),
};
const afterWrite: unknown[] = [];

describe('headers written once (ADR 0013, trick 8): the same answer as Node’s header store', () => {
  for (const [name, handler] of Object.entries(HANDLERS)) {
    it(name, async () => {
      const method = name.startsWith('HEAD') ? 'HEAD' : 'GET';
      afterWrite.length = 0;
      const plain = await answer(handler, false, method);
      const once = await answer(handler, true, method);
      expect(once).toEqual(plain);
      expect(afterWrite).toHaveLength(name.includes('after the write') ? 2 : 0);
      if (afterWrite.length === 2) expect(afterWrite[1]).toEqual(afterWrite[0]);
      // the security headers are there in both (not compared to themselves only)
      expect(plain.headers).toContain('X-Content-Type-Options: nosniff');
    });
  }

  it('headers set before the first middleware', async () => {
    const early: Handler = (_req, res) => {
      res.setHeader('X-Early', '1');
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    };
    const plain = await answer(HANDLERS['own headers, one set twice, then JSON'], false, 'GET', early);
    expect(await answer(HANDLERS['own headers, one set twice, then JSON'], true, 'GET', early)).toEqual(plain);
    expect(plain.headers.slice(0, 2)).toEqual(['X-Early: 1', 'X-Frame-Options: DENY']);
  });

  it('writes a JSON answer without one setHeader into Node’s store', async () => {
    const setHeader = jest.spyOn(ServerResponse.prototype, 'setHeader');
    try {
      const once = await answer(HANDLERS['own headers, one set twice, then JSON'], true);
      expect(once.headers).toEqual(expect.arrayContaining(['x-request-id: second', 'Content-Type: application/json; charset=utf-8', 'Content-Length: 11']));
      expect(setHeader).not.toHaveBeenCalled();
      await answer(HANDLERS['own headers, one set twice, then JSON'], false);
      expect(setHeader.mock.calls.length).toBeGreaterThanOrEqual(16);
    } finally {
      setHeader.mockRestore();
    }
  });
});

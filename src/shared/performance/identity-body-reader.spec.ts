import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { readIdentityBody } from './identity-body-reader';

/** A server whose every request is read by readIdentityBody(limit); each outcome is handed to `seen`. */
async function serverReading(limit: number, seen: (outcome: { body?: Buffer; failure?: string }) => void): Promise<[Server, number]> {
  const server = createServer((req: IncomingMessage, res) => {
    readIdentityBody(req as Request, limit).then(
      (body) => {
        seen({ body });
        res.end('ok');
      },
      (err: { type: string }) => {
        seen({ failure: err.type });
        res.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return [server, (server.address() as AddressInfo).port];
}

describe('readIdentityBody', () => {
  it('joins the pieces of a body, refuses one over the limit (declared or sent) after reading it, and settles when the client goes away mid-body', async () => {
    const outcomes: Array<{ body?: Buffer; failure?: string }> = [];
    let told: () => void = () => undefined;
    const [server, port] = await serverReading(10, (o) => {
      outcomes.push(o);
      told();
    });
    const next = () => new Promise<void>((resolve) => (told = resolve));
    const send = (headers: Record<string, string>, pieces: string[]) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        for (const p of pieces.slice(0, -1)) req.write(p);
        req.end(pieces[pieces.length - 1]);
      });
    try {
      expect(await send({}, ['0123', '456', '789'])).toBe('ok');
      expect(await send({ 'Content-Length': '10' }, ['01234', '56789'])).toBe('ok');
      expect(await send({}, ['0123456789', 'x'])).toBe('refused');
      expect(await send({ 'Content-Length': '11' }, ['0123456789x'])).toBe('refused');
      expect(await send({ 'Content-Length': '0' }, [''])).toBe('ok');
      // the client promises 10 bytes, sends 3 and disconnects: the reader settles (no request left hanging)
      const settled = next();
      const req = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'Content-Length': '10' } });
      req.on('error', () => undefined);
      req.write('abc');
      await new Promise((r) => setTimeout(r, 50));
      req.destroy();
      await settled;
    } finally {
      server.close();
    }
    expect(outcomes.map((o) => o.failure ?? o.body?.toString('latin1'))).toEqual([
      '0123456789',
      '0123456789',
      'entity.too.large',
      'entity.too.large',
      '',
      'request.aborted',
    ]);
  });
});

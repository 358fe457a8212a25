import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const PROBLEM = /^application\/problem\+json/;

describe('transport rules (CONTRACT §3, §4)', () => {
  let app: TestApp;
  let project: SandboxProject;
  let auth: string;

  beforeAll(async () => {
    app = await createTestApp();
    project = await aSandboxProject(app);
    auth = `Bearer ${project.token}`;
  });
  afterAll(() => app.close());

  const accounts = () => project.accounts.map((a) => a.id);

  function expectProblem(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    expect(res.body).toMatchObject({ type: `urn:partner-api:error:${code}`, status, code });
    expect(typeof res.body.title).toBe('string');
    expect(typeof res.body.detail).toBe('string');
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  }

  /** A valid prepare body padded with JSON whitespace to exactly `bytes` bytes. */
  function paddedJournal(bytes: number): string {
    const json = JSON.stringify(aJournal(accounts()));
    return json.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(json)) + '}';
  }

  it('accepts a body of exactly 262,144 bytes', async () => {
    const body = paddedJournal(262_144);
    expect(Buffer.byteLength(body)).toBe(262_144);
    const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', auth).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
  });

  it('refuses 262,145 bytes with 413 payload_too_large', async () => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(paddedJournal(262_145));
    expectProblem(res, 413, 'payload_too_large');
  });

  /** A prepare sent by hand: its body in `pieces` (written one by one, chunked unless a Content-Length is given). */
  async function sendInPieces(headers: Record<string, string>, pieces: Buffer[]): Promise<{ status: number; body: Record<string, unknown> }> {
    const server = app.apps.partner.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${SANDBOX}/journal/prepare`,
          headers: { Authorization: auth, 'Content-Type': 'application/json', ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        },
      );
      req.on('error', reject);
      const [last, ...first] = [...pieces].reverse();
      for (const piece of first.reverse()) req.write(piece);
      req.end(last);
    });
  }

  it('reads a body sent in several pieces, with or without its length, and refuses one byte over 262,144 sent chunked, after reading it', async () => {
    const body = Buffer.from(paddedJournal(262_144));
    const pieces = [body.subarray(0, 7), body.subarray(7, 100_000), body.subarray(100_000)];
    for (const headers of [{}, { 'Content-Length': String(body.length) }] as Array<Record<string, string>>) {
      const res = await sendInPieces(headers, pieces);
      expect([res.status, res.body.valid]).toEqual([200, true]);
    }
    const over = Buffer.from(paddedJournal(262_145));
    const refused = await sendInPieces({}, [over.subarray(0, 200_000), over.subarray(200_000)]);
    expect([refused.status, refused.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('inflates a gzip body (Content-Encoding) and refuses an encoding it does not know with 415', async () => {
    const json = JSON.stringify(aJournal(accounts()));
    const gzipped = await sendInPieces({ 'Content-Encoding': 'gzip' }, [gzipSync(json)]);
    expect([gzipped.status, gzipped.body.valid]).toEqual([200, true]);
    const unknown = await sendInPieces({ 'Content-Encoding': 'x-unknown' }, [Buffer.from(json)]);
    expect([unknown.status, unknown.body.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('checks the media type before the size and the token', async () => {
    const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Content-Type', 'text/plain').send('x'.repeat(300_000));
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('accepts application/json; charset=utf-8', async () => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(aJournal(accounts())));
    expect(res.status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"posting_date": '],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['empty', ''],
  ])('refuses %s with 400 invalid_input and no errors[]', async (_name, body) => {
    const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', auth).set('Content-Type', 'application/json').send(body);
    expectProblem(res, 400, 'invalid_input');
    expect(res.body.errors).toBeUndefined();
  });

  it('checks transport before the token', async () => {
    const res = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Content-Type', 'application/json').send('{oops');
    expectProblem(res, 400, 'invalid_input');
  });

  it.each([
    ['an unknown path', 'post', `${SANDBOX}/nope`],
    ['a wrong method', 'get', `${SANDBOX}/journal/prepare`],
    ['an unknown top-level path', 'delete', '/whatever'],
  ])('answers %s with 404 not_found, with or without a token', async (_name, method, path) => {
    for (const withToken of [false, true]) {
      let req = (app.partner() as unknown as Record<string, (p: string) => ReturnType<TestApp['partner']>['post']>)[method](
        path,
      ) as unknown as import('supertest').Test;
      if (withToken) req = req.set('Authorization', auth);
      const res = await req;
      expectProblem(res, 404, 'not_found');
    }
  });

  it('routes first: an unknown path with an oversized, non-JSON body is 404', async () => {
    const res = await app.partner().post(`${SANDBOX}/nope`).set('Content-Type', 'text/plain').send('x'.repeat(300_000));
    expectProblem(res, 404, 'not_found');
  });

  it('echoes a valid X-Request-Id and replaces an invalid one', async () => {
    const given = 'abc-123_XYZ.~!';
    const ok = await app.partner().get('/health/live').set('X-Request-Id', given);
    expect(ok.headers['x-request-id']).toBe(given);
    for (const bad of ['', 'x'.repeat(129), 'has space', 'tab\there']) {
      const res = await app.partner().post(`${SANDBOX}/nope`).set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('generates a request id when none is sent', async () => {
    const a = await app.partner().get('/health/live');
    const b = await app.partner().get('/health/live');
    expect(a.headers['x-request-id']).toBeTruthy();
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('marks partner responses Cache-Control: no-store, success and error alike', async () => {
    const ok = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', auth).send(aJournal(accounts()));
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const err = await app.partner().post(`${SANDBOX}/journal/prepare`).send(aJournal(accounts()));
    expect(err.status).toBe(401);
    expect(err.headers['cache-control']).toBe('no-store');
  });

  it('sends no ETag: an answer that must not be stored has no validator (and costs no hash per response)', async () => {
    const ok = await app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', auth).send(aJournal(accounts()));
    expect(ok.status).toBe(200);
    expect(ok.headers.etag).toBeUndefined();
    const err = await app.console().post('/console/v1/nope');
    expect(err.status).toBe(404);
    expect(err.headers.etag).toBeUndefined();
  });

  it('answers the console with X-Request-Id and problem bodies too', async () => {
    const res = await app.console().post('/console/v1/nope').set('X-Request-Id', 'console-req-1');
    expectProblem(res, 404, 'not_found');
    expect(res.headers['x-request-id']).toBe('console-req-1');
  });

  it('serves health and the OpenAPI document without a token', async () => {
    expect((await app.partner().get('/health/live')).status).toBe(200);
    const ready = await app.partner().get('/health/ready');
    expect(ready.status).toBe(200);
    for (const base of ['/api/partner/v1', SANDBOX]) {
      const doc = await app.partner().get(`${base}/openapi.json`);
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toBe('3.1.0');
      expect(Object.keys(doc.body.paths)).toContain('/journal/prepare');
      expect(doc.body.servers.map((s: { url: string }) => s.url)).toContain('/api/partner/v1');
    }
    const docs = await app.partner().get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
  });
});

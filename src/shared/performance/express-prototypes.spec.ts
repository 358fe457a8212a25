import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, request as httpRequest, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';
import { exactRoutingExpress } from '../http/server-limits';
import { expressMessageClasses } from './express-prototypes';

interface Seen {
  requestProto: boolean;
  responseProto: boolean;
}

/** What a request and its response look like: whose prototypes. */
const look = (app: Express, req: object, res: object): Seen => ({
  requestProto: Object.getPrototypeOf(req) === app.request,
  responseProto: Object.getPrototypeOf(res) === app.response,
});

/**
 * Whether requests and responses keep fast properties (V8's `%HasFastProperties`: a map per shape, not a dictionary),
 * on arrival and in the handler, over 20 calls to an Express app on a server with these classes (`made`) or Node's
 * own, in a node process of its own. The property mode of an object depends on what the whole process made before it
 * (V8 sizes the objects of a constructor by its first ones), so it is judged in a process that made nothing else, as
 * the service's is: in a test worker that had run other suites first it once read dictionary mode for Node's classes
 * too. The calls are raw bytes over a socket, so that no client-side IncomingMessage is made.
 */
function propertyModes(made: boolean): boolean[][] {
  const work = mkdtempSync(join(tmpdir(), 'express-prototypes-'));
  try {
    const source = readFileSync(join(__dirname, 'express-prototypes.ts'), 'utf8');
    writeFileSync(
      join(work, 'classes.js'),
      transpileModule(source, { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } }).outputText,
    );
    writeFileSync(
      join(work, 'modes.js'),
      `const http = require('node:http'); const net = require('node:net');
      const express = require(${JSON.stringify(require.resolve('express'))});
      const { expressMessageClasses } = require('./classes.js');
      const fast = new Function('o', 'return %HasFastProperties(o)');
      const app = express(); const seen = [];
      app.get('/json', (req, res) => { seen.push([fast(req), fast(res)]); res.json({ q: req.query, ip: req.ip }); });
      const server = http.createServer(${made ? 'expressMessageClasses(app)' : '{}'}, app);
      server.prependListener('request', (req, res) => seen.push([fast(req), fast(res)]));
      const call = (port) => new Promise((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => s.write('GET /json?a=1 HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n'));
        s.on('data', () => {}); s.on('end', resolve); s.on('error', reject);
      });
      server.listen(0, '127.0.0.1', async () => {
        for (let i = 0; i < 20; i++) await call(server.address().port);
        server.close();
        process.stdout.write(JSON.stringify(seen));
      });`,
    );
    return JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', join(work, 'modes.js')], { encoding: 'utf8', timeout: 20_000 })) as boolean[][];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** An Express app with the kinds of answer the service gives, and what each request looked like when it arrived. */
function anApp(): { app: Express; seen: Seen[] } {
  const app = exactRoutingExpress();
  const seen: Seen[] = [];
  app.use(express.json());
  app.get('/json', (req, res) => {
    seen.push(look(app, req, res));
    res
      .set('X-Thing', 'a')
      .status(201)
      .json({ q: req.query, ip: req.ip, host: req.get('host'), app: req.app === app, path: req.path });
  });
  app.post('/echo', (req, res) =>
    res.json({ body: req.body as unknown, type: req.is('application/json'), instances: [req instanceof IncomingMessage, res instanceof ServerResponse] }),
  );
  app.get('/text', (_req, res) => res.type('text/plain').send('hello'));
  app.get('/redirect', (_req, res) => res.redirect(303, '/json'));
  app.get('/stream', (_req, res) => {
    res.write('a');
    res.end('b');
  });
  return { app, seen };
}

async function serve(withClasses: boolean): Promise<{ server: Server; seen: Seen[]; port: number }> {
  const { app, seen } = anApp();
  const server = createServer(withClasses ? expressMessageClasses(app) : {}, app);
  // before Express's app.handle gives the objects their prototypes
  server.prependListener('request', (req, res) => seen.push(look(app, req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, port: (server.address() as AddressInfo).port };
}

/** status, headers but the date, and body of one call */
function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: 'service.test', ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const { date: _date, ...headers } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers, body: text });
        });
      },
    );
    req.on('error', reject);
    // a server that never answers fails the call, not the whole run; 2 s was once too short for an answer in a loaded
    // CI run (a POST /echo, 2026-11-30), which a test worker next to the e2e suites can take
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path} on port ${port}: no answer within 15 s`)));
    req.end(body);
  });
}

const CALLS: Array<[string, string, string?]> = [
  ['GET', '/json?a=1&b=two'],
  ['HEAD', '/json'],
  ['POST', '/echo', '{"x":[1,2],"y":"z"}'],
  ['POST', '/echo', '{"broken'],
  ['GET', '/text'],
  ['GET', '/redirect'],
  ['GET', '/stream'],
  ['GET', '/nothing-here'],
];

describe("requests and responses made with Express's prototypes (ADR 0013, trick 9)", () => {
  let plain: Awaited<ReturnType<typeof serve>>;
  let made: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    [plain, made] = [await serve(false), await serve(true)];
  });
  afterAll(async () => {
    for (const s of [plain, made]) {
      s?.server.closeAllConnections();
      await new Promise((resolve) => s?.server.close(resolve));
    }
  });

  it('answers every call exactly as the app on Node’s own classes does', async () => {
    for (const [method, path, body] of CALLS) {
      const [a, b] = [await call(plain.port, method, path, body), await call(made.port, method, path, body)];
      expect({ method, path, ...b }).toEqual({ method, path, ...a });
    }
    // the calls reached handlers, a body parser's refusal and the 404, not only one kind of answer
    const statuses = new Set<number>();
    for (const [method, path, body] of CALLS) statuses.add((await call(made.port, method, path, body)).status);
    expect([...statuses].sort()).toEqual([200, 201, 303, 400, 404]);
  });

  it("gives each request and response the app's prototypes before Express's own step, so that step changes nothing", async () => {
    made.seen.length = 0;
    plain.seen.length = 0;
    await call(made.port, 'GET', '/json');
    await call(plain.port, 'GET', '/json');
    // on arrival, then in the handler
    expect(made.seen).toEqual([
      { requestProto: true, responseProto: true },
      { requestProto: true, responseProto: true },
    ]);
    // without them, the prototypes are Node's until app.handle changes them
    expect(plain.seen).toEqual([
      { requestProto: false, responseProto: false },
      { requestProto: true, responseProto: true },
    ]);
  });

  it("keeps the objects' fast properties, as Node's own keep theirs", () => {
    // a first version had them go to dictionary mode, and the request cost more than the trick saved
    const [made, plain] = [propertyModes(true), propertyModes(false)];
    expect(plain).toHaveLength(40);
    expect(plain.filter(([req, res]) => !(req && res))).toEqual([]);
    expect(made).toHaveLength(40);
    expect(made.filter(([req, res]) => !(req && res))).toEqual([]);
  });

  it("keeps Node's objects: instances of Node's classes, initialised by Node's constructors", async () => {
    const echoed = JSON.parse((await call(made.port, 'POST', '/echo', '{"x":1}')).body) as { instances: boolean[] };
    expect(echoed.instances).toEqual([true, true]);
    const { app } = anApp();
    const { IncomingMessage: Req, ServerResponse: Res } = expressMessageClasses(app);
    const req = new Req(undefined as never);
    const res = new Res(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    // fields Node's constructors set
    expect(req.headers).toEqual({});
    expect(res.statusCode).toBe(200);
    expect((res as ServerResponse & { req: unknown }).req).toBe(req);
  });
});

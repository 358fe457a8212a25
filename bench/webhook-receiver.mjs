// The partner's receiver for bench/webhooks.mjs, in its own process (its clock readings do not wait for the load
// generator's event loop): POST /hooks/<n> verifies the Standard Webhooks signature with endpoint n's secret
// and answers 200 at once. Reports, per operation, when it first arrived, the event's timestamp and how often.
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Webhook } = require('standardwebhooks');

let verifiers = [];
let byOperation = {};
let badSignatures = 0;
let wrongEndpoint = 0;
let received = 0;
const endpointOf = new Map(); // operation -> endpoint index

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const n = Number(/^\/hooks\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    let payload;
    try {
      payload = verifiers[n].verify(body, req.headers);
    } catch {
      badSignatures++;
      res.statusCode = 400;
      res.end();
      return;
    }
    received++;
    res.end('ok');
    const op = payload.data.operation_id;
    const seen = byOperation[op];
    if (seen) seen.count++;
    else byOperation[op] = { firstAt: at, eventAt: Date.parse(payload.timestamp), count: 1, webhookId: req.headers['webhook-id'] };
    if (endpointOf.has(op) && endpointOf.get(op) !== n) wrongEndpoint++;
    endpointOf.set(op, n);
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', (m) => {
  if (m.secrets) verifiers = m.secrets.map((s) => new Webhook(s));
  if (m.reset) {
    byOperation = {};
    endpointOf.clear();
    received = 0;
  }
  if (m.report) process.send({ byOperation, badSignatures, wrongEndpoint, received });
});
process.on('disconnect', () => process.exit(0));

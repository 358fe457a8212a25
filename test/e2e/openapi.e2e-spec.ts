import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES } from '../../src/shared/domain/scopes';
import { undescribedConsoleRoutes } from '../../src/shared/http/openapi/console-document';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aSandboxProject, SANDBOX } from '../support/fixtures';
import { consoleRouteDeclarations, partnerRouteDeclarations } from '../support/route-declarations';
import { consolePost } from '../support/production-fixtures';
import { checkResponse, checkWebhookBody } from '../support/response-validation';
import { createTestApp, type TestApp } from '../support/test-app';

const checkedIn = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', `${name}.json`), 'utf8'));

describe('the OpenAPI documents (CONTRACT §13)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it.each(['/api/partner/v1/openapi.json', '/api/partner/sandbox/v1/openapi.json'])(
    '%s is public and equals openapi/partner.json (run `npm run openapi` after changing the API)',
    async (path) => {
      const res = await app.partner().get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(checkedIn('partner'));
      expect(res.body.openapi).toBe('3.1.0');
      expect(JSON.stringify(res.body)).not.toContain('"nullable"');
    },
  );

  it('the console document is served on the console listener without a key and equals openapi/console.json', async () => {
    const res = await app.console().get('/console/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(checkedIn('console'));
  });

  it('the console document describes every console route, as the route declares it (@ConsoleOperation)', () => {
    expect(undescribedConsoleRoutes(app.apps.console!)).toEqual([]);
    const described = Object.entries<Record<string, { operationId: string }>>(checkedIn('console').paths)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => `${method} ${path} ${op.operationId}`))
      .sort();
    const declared = consoleRouteDeclarations()
      .map((r) => `${r.method} ${r.path} ${r.facts?.operationId}`)
      .sort();
    expect(described).toEqual(declared);
    expect(described.length).toBeGreaterThanOrEqual(30);
  });

  it('the docs page still works', async () => {
    const res = await app.partner().get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger');
  });

  it('the partner document has one operation per partner route, as the route declares it (@PartnerOperation, @Idempotent)', () => {
    const doc = checkedIn('partner');
    const described = Object.entries<Record<string, { operationId: string; parameters?: Array<{ $ref?: string }> }>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        route: `${method} ${path}`,
        operationId: op.operationId,
        idempotent: (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/Idempotency-Key'),
      })),
    );
    const declared = partnerRouteDeclarations().map((r) => ({ route: `${r.method} ${r.path}`, operationId: r.facts?.operationId, idempotent: r.idempotent }));
    const byRoute = (a: { route: string }, b: { route: string }) => a.route.localeCompare(b.route);
    expect(described.sort(byRoute)).toEqual(declared.sort(byRoute));
    // the scan behind both sides found the partner API's writes and reads (a route list that is empty proves nothing)
    expect(described.filter((d) => d.idempotent).length).toBeGreaterThanOrEqual(3);
    expect(described.length).toBeGreaterThanOrEqual(12);
  });

  it('the partner document names the schemes of §13', () => {
    const doc = checkedIn('partner');
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual(['/api/partner/sandbox/v1', '/api/partner/v1']);
    expect(doc.components.securitySchemes.bearer).toEqual(expect.not.objectContaining({ bearerFormat: expect.anything() }));
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({ authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token' });
    expect(Object.keys(doc.webhooks).sort()).toEqual(['grant.expiring', 'grant.revoked', 'operation.completed', 'webhook.test']);
    // CONTRACT §18: any scope may read the grant
    expect(doc.paths['/grant'].get.security).toEqual([{ bearer: [] }, ...SCOPES.map((scope) => ({ oauth2: [scope] }))]);
    for (const item of Object.values<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      for (const op of Object.values(item)) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '500', '503']));
    }
  });

  it('closes the 201 bodies (additionalProperties: false) and describes errors[] in the Problem schema (issue 27)', () => {
    const schemas = checkedIn('partner').components.schemas;
    for (const name of ['JournalPostResult', 'ProductCreateResult']) {
      expect([name, schemas[name].type, schemas[name].additionalProperties]).toEqual([name, 'object', false]);
    }
    const entry = schemas.Problem.properties.errors.items;
    expect(entry).toMatchObject({ type: 'object', additionalProperties: false, required: ['pointer', 'code', 'detail'] });
    expect(entry.properties.code.enum).toEqual(['invalid_input', 'invalid_amount', 'reference_not_allowed']);
    expect(Object.keys(entry.properties)).toEqual(['pointer', 'code', 'detail']);
    // a first execution, a replay, and neither (an extra member, or a replay with environment)
    const headers = { 'content-type': 'application/json', 'x-request-id': 'r' };
    const id = '0b9e3b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    const posted = { id, posted: true, voucher_number: 7, operation_id: id, replayed: false, environment: 'production' };
    const path = '/api/partner/v1/journal';
    const check = (body: unknown) => checkResponse('partner', 'POST', path, 201, headers, Buffer.from(JSON.stringify(body)));
    expect(check(posted)).toBeNull();
    expect(check({ ...posted, replayed: true, environment: undefined })).toBeNull();
    expect(check({ ...posted, replayed: true })).toMatch(/does not match/);
    expect(check({ ...posted, note: 'x' })).toMatch(/does not match/);
  });

  it('the response check fails on a body the document does not allow and on an undeclared status', () => {
    const headers = { 'content-type': 'application/json', 'x-request-id': 'r' };
    const receipt = {
      operation_id: '0b9e3b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      kind: 'product.create',
      status: 'completed',
      resource: { type: 'product', id: '0b9e3b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
      completed_at: '2026-11-23T23:00:00.000Z',
      environment: 'sandbox',
    };
    const path = `/api/partner/sandbox/v1/operations/${receipt.operation_id}`;
    expect(checkResponse('partner', 'GET', path, 200, headers, Buffer.from(JSON.stringify(receipt)))).toBeNull();
    expect(checkResponse('partner', 'GET', path, 200, headers, Buffer.from(JSON.stringify({ ...receipt, extra: 1 })))).toMatch(/does not match/);
    expect(checkResponse('partner', 'GET', path, 418, headers, Buffer.from('{}'))).toMatch(/not declared/);
    expect(checkResponse('partner', 'GET', '/health/live', 200, {}, Buffer.from('x'))).toBeNull();
  });

  it('an operation.completed webhook body matches webhooks[operation.completed]', async () => {
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push(body);
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const project = await aSandboxProject(app);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect((await consolePost(app, `/apps/${project.app_id}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(201);
      const res = await app
        .partner()
        .post(`${SANDBOX}/products`)
        .set('Authorization', `Bearer ${project.token}`)
        .set('Idempotency-Key', 'doc-hook')
        .send({ code: 'H', name: 'H' });
      expect(res.status).toBe(201);
      const end = Date.now() + 8000;
      while (bodies.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(bodies).toHaveLength(1);
      expect(checkWebhookBody(bodies[0])).toBeNull();
      expect(checkWebhookBody(bodies[0].replace('"operation.completed"', '"operation.done"'))).toMatch(/does not match/);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

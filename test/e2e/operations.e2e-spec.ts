import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, anApprovedApp, aToken, codeOf, consolePost } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /operations/{operation_id} — the receipt lookup (CONTRACT §7)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const lookUp = (base: string, token: string, operationId: string) =>
    app.partner().get(`${base}/operations/${operationId}`).set('Authorization', `Bearer ${token}`);
  const postJournal = (p: SandboxProject, key: string = randomUUID(), body: object = aJournal(p.accounts.map((a) => a.id))) =>
    app.partner().post(`${SANDBOX}/journal`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', key).send(body);
  const createProduct = (base: string, token: string, code = `P-${randomUUID()}`) =>
    app.partner().post(`${base}/products`).set('Authorization', `Bearer ${token}`).set('Idempotency-Key', randomUUID()).send({ code, name: 'Receipt test' });

  it('finds the receipt of a final posting: exactly the contract members, kind journal.post, the entry as resource', async () => {
    const p = await aSandboxProject(app);
    const before = Date.now();
    const posted = await postJournal(p);
    expect(posted.status).toBe(201);
    const res = await lookUp(SANDBOX, p.token, posted.body.operation_id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      operation_id: posted.body.operation_id,
      kind: 'journal.post',
      status: 'completed',
      resource: { type: 'journal_entry', id: posted.body.id },
      completed_at: expect.stringMatching(ISO_MILLIS),
      environment: 'sandbox',
    });
    const completedAt = Date.parse(res.body.completed_at);
    expect(completedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(completedAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('finds the receipt of a product create: kind product.create, the product as resource', async () => {
    const p = await aSandboxProject(app);
    const created = await createProduct(SANDBOX, p.token);
    expect(created.status).toBe(201);
    const res = await lookUp(SANDBOX, p.token, created.body.operation_id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      operation_id: created.body.operation_id,
      kind: 'product.create',
      status: 'completed',
      resource: { type: 'product', id: created.body.id },
      completed_at: expect.stringMatching(ISO_MILLIS),
      environment: 'sandbox',
    });
  });

  it('names the same receipt by the upper-case form of its id', async () => {
    const p = await aSandboxProject(app);
    const posted = await postJournal(p);
    const lower = await lookUp(SANDBOX, p.token, posted.body.operation_id);
    const upper = await lookUp(SANDBOX, p.token, posted.body.operation_id.toUpperCase());
    expect(upper.status).toBe(200);
    expect(upper.body).toEqual(lower.body);
  });

  it('answers a replay with the first execution’s operation, whose receipt is unchanged; a replay stores no second receipt', async () => {
    const p = await aSandboxProject(app);
    const key = randomUUID();
    const body = aJournal(p.accounts.map((a) => a.id));
    const first = await postJournal(p, key, body);
    const firstReceipt = await lookUp(SANDBOX, p.token, first.body.operation_id);
    const replay = await postJournal(p, key, body);
    expect(replay.status).toBe(201);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.operation_id).toBe(first.body.operation_id);
    const again = await lookUp(SANDBOX, p.token, replay.body.operation_id);
    expect(again.body).toEqual(firstReceipt.body);
    const [{ n }] = await app.apps.partner
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM operation_receipts WHERE organization_id = $1`, [p.organization_id]);
    expect(n).toBe(1);
  });

  it('answers 404 not_found, with one body, for another project’s operation, a random uuid and ids that are not uuids', async () => {
    const p = await aSandboxProject(app);
    const other = await aSandboxProject(app);
    const theirs = await postJournal(other);
    const theirProduct = await createProduct(SANDBOX, other.token);
    expect((await lookUp(SANDBOX, other.token, theirs.body.operation_id)).status).toBe(200); // it exists for them
    const ids = [
      theirs.body.operation_id,
      theirProduct.body.operation_id,
      randomUUID(),
      'not-a-uuid',
      `${randomUUID()}0`,
      '00000000-0000-0000-0000-00000000000g',
      encodeURIComponent("1' OR '1'='1"),
    ];
    const bodies: unknown[] = [];
    for (const id of ids) {
      const res = await lookUp(SANDBOX, p.token, id);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'not_found' });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const { request_id, ...rest } = res.body;
      expect(request_id).toBe(res.headers['x-request-id']);
      bodies.push(rest);
    }
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    expect(JSON.stringify(bodies[0])).not.toContain(theirs.body.operation_id);
  });

  it('answers 404 for another app’s operation in the same organization (production)', async () => {
    const a = await aProductionAccess(app, { scopes: ['products:create', 'operations:read'] });
    const otherApp = await anApprovedApp(app, 'Other app');
    // a second grant of the same owner needs a code of a later step (a code is used once, CONTRACT §8)
    const grantB = await consolePost(app, `/organizations/${a.organization.id}/grants`, {
      app_id: otherApp.id,
      owner_user_id: a.owner.user_id,
      totp_code: codeOf(a.owner, Date.now() + 30_000),
      account_ids: a.grantedAccountIds,
      scopes: ['products:create', 'operations:read'],
    });
    expect(grantB.status).toBe(201);
    const tokenB = await aToken(app, grantB.body.id);

    const created = await createProduct(PRODUCTION, a.token);
    expect(created.status).toBe(201);
    const own = await lookUp(PRODUCTION, a.token, created.body.operation_id);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ kind: 'product.create', environment: 'production', resource: { type: 'product', id: created.body.id } });
    const foreign = await lookUp(PRODUCTION, tokenB, created.body.operation_id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const random = await lookUp(PRODUCTION, tokenB, randomUUID());
    expect({ ...foreign.body, request_id: null }).toEqual({ ...random.body, request_id: null });
  });

  it('answers 404 for a sandbox operation looked up with a production token', async () => {
    const p = await aSandboxProject(app);
    const posted = await postJournal(p);
    const prod = await aProductionAccess(app, { scopes: ['operations:read'] });
    const res = await lookUp(PRODUCTION, prod.token, posted.body.operation_id);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('needs the operations:read scope, checked before the id (403 insufficient_scope, even for a non-uuid)', async () => {
    const a = await aProductionAccess(app, { scopes: ['products:create'] });
    const created = await createProduct(PRODUCTION, a.token);
    expect(created.status).toBe(201);
    for (const id of [created.body.operation_id, 'not-a-uuid']) {
      const res = await lookUp(PRODUCTION, a.token, id);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
    }
  });

  it('answers 401 without a token, before the id is looked at', async () => {
    const p = await aSandboxProject(app);
    const posted = await postJournal(p);
    const res = await app.partner().get(`${SANDBOX}/operations/${posted.body.operation_id}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_token');
  });
});

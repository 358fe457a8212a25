import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { anotherAppsToken, aProductionAccess, consolePost } from '../support/production-fixtures';
import { createTestApp, itOnPostgres, type TestApp } from '../support/test-app';
import { eventually } from '../support/wait';

interface FeedPage {
  data: Array<{ id: string; type: string; timestamp: string; data: { operation_id: string } & Record<string, unknown> }>;
  next_cursor: string;
  has_more: boolean;
}

describe('GET {base}/events — the events feed (CONTRACT §14)', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const feed = (base: string, token: string, query: Record<string, string> = {}) =>
    app.partner().get(`${base}/events`).query(query).set('Authorization', `Bearer ${token}`);
  const page = async (base: string, token: string, query: Record<string, string> = {}): Promise<FeedPage> => {
    const res = await feed(base, token, query);
    expect(res.status).toBe(200);
    return res.body as FeedPage;
  };
  const createProduct = async (base: string, token: string): Promise<string> => {
    const res = await app
      .partner()
      .post(`${base}/products`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', randomUUID())
      .send({ code: `F-${randomUUID()}`, name: 'Feed' });
    expect(res.status).toBe(201);
    return res.body.operation_id as string;
  };
  const postJournal = async (p: SandboxProject): Promise<string> => {
    const res = await app
      .partner()
      .post(`${SANDBOX}/journal`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .send(aJournal(p.accounts.map((a) => a.id)));
    expect(res.status).toBe(201);
    return res.body.operation_id as string;
  };
  /** Every event from the start, following next_cursor; the last cursor. */
  const readAll = async (base: string, token: string, limit = '100', after?: string) => {
    const events: FeedPage['data'] = [];
    let cursor = after;
    for (;;) {
      const p = await page(base, token, { limit, ...(cursor ? { after: cursor } : {}) });
      events.push(...p.data);
      cursor = p.next_cursor;
      if (!p.has_more) return { events, cursor };
    }
  };

  it('starts empty with a cursor, lists the writes as their webhook bodies in commit order, and reads on from an empty page later', async () => {
    const p = await aSandboxProject(app);
    const empty = await feed(SANDBOX, p.token);
    expect(empty.status).toBe(200);
    expect(empty.headers['cache-control']).toBe('no-store');
    expect(empty.body).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });

    const first = await createProduct(SANDBOX, p.token);
    const second = await postJournal(p);
    const all = await page(SANDBOX, p.token);
    expect(all.data.map((e) => e.data.operation_id)).toEqual([first, second]);
    expect(all.has_more).toBe(false);
    for (const e of all.data) {
      expect(Object.keys(e)).toEqual(['id', 'type', 'timestamp', 'data']);
      expect(e.type).toBe('operation.completed');
      const receipt = await app.partner().get(`${SANDBOX}/operations/${e.data.operation_id}`).set('Authorization', `Bearer ${p.token}`);
      expect(e.data).toEqual(receipt.body);
      expect(e.timestamp).toBe(receipt.body.completed_at);
    }

    // the empty page's cursor, read on later, returns exactly what arrived since
    const later = await page(SANDBOX, p.token, { after: empty.body.next_cursor });
    expect(later.data.map((e) => e.data.operation_id)).toEqual([first, second]);
    const nothingNew = await page(SANDBOX, p.token, { after: later.next_cursor });
    expect(nothingNew).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
    const third = await createProduct(SANDBOX, p.token);
    const afterEmpty = await page(SANDBOX, p.token, { after: nothingNew.next_cursor });
    expect(afterEmpty.data.map((e) => e.data.operation_id)).toEqual([third]);
  });

  it('pages by limit with has_more; limit defaults to 20', async () => {
    const p = await aSandboxProject(app);
    const ops: string[] = [];
    for (let i = 0; i < 23; i++) ops.push(await createProduct(SANDBOX, p.token));
    const byDefault = await page(SANDBOX, p.token);
    expect(byDefault.data).toHaveLength(20);
    expect(byDefault.has_more).toBe(true);
    const rest = await page(SANDBOX, p.token, { after: byDefault.next_cursor });
    expect(rest.data).toHaveLength(3);
    expect(rest.has_more).toBe(false);
    const byOne = await readAll(SANDBOX, p.token, '1');
    expect(byOne.events.map((e) => e.data.operation_id)).toEqual(ops);
    const exact = await page(SANDBOX, p.token, { limit: '23' });
    expect(exact.data).toHaveLength(23);
    expect(exact.has_more).toBe(false);
  });

  it('carries the webhook-id and the identical body of every delivery', async () => {
    const p = await aSandboxProject(app);
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      expect((await consolePost(app, `/apps/${p.app_id}/webhook-endpoints`, { url, environment: 'sandbox' })).status).toBe(201);
      await postJournal(p);
      await createProduct(SANDBOX, p.token);
      await eventually(() => received.length >= 2, 'two deliveries');
      const events = (await page(SANDBOX, p.token)).data;
      expect(events).toHaveLength(2);
      for (const r of received) {
        const event = events.find((e) => e.id === r.headers['webhook-id']);
        expect(event).toBeDefined();
        const { id, ...body } = event!;
        expect(JSON.stringify(body)).toBe(r.body);
        expect(id).toBe(r.headers['webhook-id']);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("lists only the caller's events: not another project's, not another app's or organization's, not the other environment's", async () => {
    const a = await aSandboxProject(app);
    const b = await aSandboxProject(app);
    const prodA = await aProductionAccess(app);
    // a second app granted in the same organization, by a second owner (one TOTP use per owner and step)
    const prodB = await anotherAppsToken(app, prodA, ['products:create', 'operations:read']);

    const mine = { a: await createProduct(SANDBOX, a.token), b: await createProduct(SANDBOX, b.token) };
    const prod = { a: await createProduct(PRODUCTION, prodA.token), b: await createProduct(PRODUCTION, prodB) };

    expect((await readAll(SANDBOX, a.token)).events.map((e) => e.data.operation_id)).toEqual([mine.a]);
    expect((await readAll(SANDBOX, b.token)).events.map((e) => e.data.operation_id)).toEqual([mine.b]);
    expect((await readAll(PRODUCTION, prodA.token)).events.map((e) => e.data.operation_id)).toEqual([prod.a]);
    expect((await readAll(PRODUCTION, prodB)).events.map((e) => e.data.operation_id)).toEqual([prod.b]);
    expect((await readAll(PRODUCTION, prodA.token)).events[0].data.environment).toBe('production');
  });

  it('refuses a cursor of another app, a changed or made-up cursor and a bad limit with 400 and the pointer', async () => {
    const a = await aSandboxProject(app);
    const b = await aSandboxProject(app);
    await createProduct(SANDBOX, a.token);
    await createProduct(SANDBOX, b.token);
    const cursorOfB = (await page(SANDBOX, b.token, { limit: '1' })).next_cursor;
    const cursorOfA = (await page(SANDBOX, a.token, { limit: '1' })).next_cursor;
    // an opaque cursor (CONTRACT §20): `v<N>.<sealed position>`; one character of its middle changed, cut short, or grown
    const [version, sealed] = [cursorOfA.slice(0, cursorOfA.indexOf('.')), cursorOfA.slice(cursorOfA.indexOf('.') + 1)];
    const middle = sealed.length >> 1;
    const changed = `${version}.${sealed.slice(0, middle)}${sealed[middle] === 'A' ? 'B' : 'A'}${sealed.slice(middle + 1)}`;
    expect(changed).not.toBe(cursorOfA);
    const otherVersion = `v9.${sealed}`;
    const badAfter = [cursorOfB, changed, otherVersion, `${version}.${sealed.slice(0, -4)}`, sealed, 'abc', '', `${cursorOfA}x`, 'x'.repeat(300)];
    for (const after of badAfter) {
      const res = await feed(SANDBOX, a.token, { after });
      expect({ after, status: res.status }).toEqual({ after, status: 400 });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.errors).toEqual([{ pointer: '/after', code: 'invalid_input', detail: expect.any(String) }]);
      expect(JSON.stringify(res.body)).not.toContain(b.app_id);
    }
    for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e1', ' 5', '99999999999999999999']) {
      const res = await feed(SANDBOX, a.token, { limit });
      expect({ limit, status: res.status }).toEqual({ limit, status: 400 });
      expect(res.body.errors).toEqual([{ pointer: '/limit', code: 'invalid_input', detail: expect.any(String) }]);
    }
    const repeated = await app.partner().get(`${SANDBOX}/events?limit=1&limit=2`).set('Authorization', `Bearer ${a.token}`);
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors[0].pointer).toBe('/limit');
    const both = await feed(SANDBOX, a.token, { after: 'nope', limit: '0' });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/after', '/limit']);
    for (const limit of ['1', '100', '007']) expect((await feed(SANDBOX, a.token, { limit })).status).toBe(200);
  });

  it('needs operations:read, and a token of the base path', async () => {
    const withoutScope = await aProductionAccess(app, { scopes: ['products:create'] });
    const res = await feed(PRODUCTION, withoutScope.token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    const p = await aSandboxProject(app);
    expect((await feed(PRODUCTION, p.token)).body.code).toBe('token_environment_mismatch');
    expect((await app.partner().get(`${SANDBOX}/events`)).status).toBe(401);
  });

  it('continues at the oldest retained event when the events up to the cursor were purged', async () => {
    const p = await aSandboxProject(app);
    const ops: string[] = [];
    for (let i = 0; i < 4; i++) ops.push(await createProduct(SANDBOX, p.token));
    const firstPage = await page(SANDBOX, p.token, { limit: '1' });
    // retention (CONTRACT §9) removes the oldest events; the purge itself is the webhooks lifecycle's
    const ids = (await page(SANDBOX, p.token, { limit: '3' })).data.map((e) => e.id);
    await db.query(`DELETE FROM webhook_outbox WHERE id = ANY($1::uuid[])`, [ids]);
    const after = await page(SANDBOX, p.token, { after: firstPage.next_cursor });
    expect(after.data.map((e) => e.data.operation_id)).toEqual([ops[3]]);
  });

  itOnPostgres('waits for a transaction of its own database that may still commit an event, never for one of another database', async () => {
    const p = await aSandboxProject(app);
    const url = process.env.TEST_DATABASE_URL!;
    const other = new URL(url);
    other.pathname = '/postgres';
    const elsewhere = new Client({ connectionString: other.toString() });
    const here = new Client({ connectionString: url });
    await elsewhere.connect();
    await here.connect();
    try {
      // a long transaction of another database of the cluster holds a transaction id
      await elsewhere.query('BEGIN');
      await elsewhere.query('SELECT pg_current_xact_id()');
      const op = await createProduct(SANDBOX, p.token);
      expect((await page(SANDBOX, p.token)).data.map((e) => e.data.operation_id)).toEqual([op]);

      // one of this database: a later event is held back until it ends (it might write an earlier one)
      await here.query('BEGIN');
      await here.query('SELECT pg_current_xact_id()');
      const held = await createProduct(SANDBOX, p.token);
      const whileOpen = await page(SANDBOX, p.token);
      expect(whileOpen.data.map((e) => e.data.operation_id)).toEqual([op]);
      await here.query('ROLLBACK');
      expect((await page(SANDBOX, p.token, { after: whileOpen.next_cursor })).data.map((e) => e.data.operation_id)).toEqual([held]);
    } finally {
      await elsewhere.query('ROLLBACK').catch(() => undefined);
      await here.query('ROLLBACK').catch(() => undefined);
      await Promise.all([elsewhere.end(), here.end()]);
    }
  });
});

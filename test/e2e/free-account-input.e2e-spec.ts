import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { aJournal, aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 43 findings 8 and 9, CONTRACT v6 §20 ("Numbers", "Query parameters", "Cursors", "Request log",
 * "Token endpoint"): what a free account sends is refused as bad input, and reveals nothing of others.
 */
describe('CONTRACT §20: numbers, query parameters, cursors (issue 43 finding 8)', () => {
  let app: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logged.push(String(chunk));
        done();
      },
    });
    app = await createTestApp({}, { logStream });
  });
  afterAll(() => app.close());

  const ids = (p: SandboxProject) => p.accounts.map((a) => a.id);
  /** A body as its bytes: `1e400` survives only in text (JSON.stringify writes Infinity as null). */
  const rawPost = (p: SandboxProject, path: string, text: string) =>
    app
      .partner()
      .post(`${SANDBOX}${path}`)
      .set('Authorization', `Bearer ${p.token}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/json')
      .send(text);
  /** The journal's text with the first line's `key` set to `number` as written. */
  const journalWith = (p: SandboxProject, key: string, number: string) => {
    const body = aJournal(ids(p));
    (body.lines[0] as Record<string, unknown>)[key] = '@NUMBER@';
    return JSON.stringify(body).replace('"@NUMBER@"', number);
  };

  describe('Numbers: outside the double range or not finite is 400 at its pointer, never a 500 (issue: POST /journal with dimension_refs [1e400] was a 500 with a stack in the log)', () => {
    for (const path of ['/journal/prepare', '/journal']) {
      for (const number of ['[1e400]', '[-1e400]', '[{"x": [2e308]}]']) {
        it(`POST ${path} with dimension_refs ${number}: 400 invalid_input at /lines/0/dimension_refs`, async () => {
          const p = await aSandboxProject(app);
          const before = logged.length;
          const res = await rawPost(p, path, journalWith(p, 'dimension_refs', number));
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('invalid_input');
          expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/lines/0/dimension_refs', code: 'invalid_input' })]);
          expect(logged.slice(before).join('')).not.toMatch(/"level":50|unhandled error/);
        });
      }
      it(`POST ${path} with debit_minor 1e400: 400 invalid_amount at /lines/0/debit_minor`, async () => {
        const p = await aSandboxProject(app);
        const res = await rawPost(p, path, journalWith(p, 'debit_minor', '1e400'));
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/lines/0/debit_minor', code: 'invalid_amount' })]);
      });
    }

    it('a number inside the double range (1.7e308, 1e-400 which is 0) is still accepted in dimension_refs', async () => {
      const p = await aSandboxProject(app);
      const res = await rawPost(p, '/journal', journalWith(p, 'dimension_refs', '[1.7e308, 1e-400]'));
      expect(res.status).toBe(201);
    });
  });

  describe('Query parameters: a partner GET with one it does not define is 400 invalid_input at /<name> (issue: ignored)', () => {
    const get = (p: SandboxProject, path: string) => app.partner().get(`${SANDBOX}${path}`).set('Authorization', `Bearer ${p.token}`);
    const anId = '00000000-0000-4000-8000-000000000000';
    const routes = ['/accounts', '/tax-codes', '/grant', '/journal/entries', `/journal/entries/${anId}`, `/journal/entries/${anId}/attachments/${anId}`, `/operations/${anId}`, '/events'];
    for (const route of routes) {
      it(`GET ${route}?posting_date_form=2026-01-01: 400 at /posting_date_form`, async () => {
        const p = await aSandboxProject(app);
        const res = await get(p, `${route}?posting_date_form=2026-01-01`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_input');
        expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/posting_date_form', code: 'invalid_input' })]);
      });
    }

    it('names each unknown parameter once, as sent (`__proto__`, a[b], ~ and / escaped), and lets the defined ones through', async () => {
      const p = await aSandboxProject(app);
      const res = await get(p, '/journal/entries?limit=5&__proto__=1&a%5Bb%5D=2&x~y%2Fz=3&__proto__=4');
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/__proto__', '/a[b]', '/x~0y~1z']);
      const defined = await get(p, '/journal/entries?limit=5&posting_date_from=2026-01-01&posting_date_to=2026-12-31&without_attachments=true');
      expect(defined.status).toBe(200);
      expect((await get(p, '/events?limit=3')).status).toBe(200);
      expect((await get(p, '/accounts')).status).toBe(200);
    });

    it('comes after the token (CONTRACT §3: input is step 5): without a token 401, with one of another environment 401', async () => {
      const p = await aSandboxProject(app);
      expect((await app.partner().get(`${SANDBOX}/accounts?x=1`)).status).toBe(401);
      expect((await app.partner().get(`/api/partner/v1/accounts?x=1`).set('Authorization', `Bearer ${p.token}`)).status).toBe(401);
    });
  });

  describe('Cursors reveal nothing of the service (issue: base64 of the global transaction id; another tenant\'s 25 postings moved it by 91)', () => {
    const post = (p: SandboxProject) =>
      app.partner().post(`${SANDBOX}/journal`).set('Authorization', `Bearer ${p.token}`).set('Idempotency-Key', randomUUID()).send(aJournal(ids(p)));
    const cursorOf = async (p: SandboxProject, list: string) => {
      const res = await app.partner().get(`${SANDBOX}${list}`).set('Authorization', `Bearer ${p.token}`);
      expect(res.status).toBe(200);
      return res.body.next_cursor as string;
    };
    /** Everything a reader could decode from a cursor: each dot-separated part as base64url, as text. */
    const decoded = (cursor: string) => cursor.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1')).join(' ');

    /** The row a posting wrote to the list's table, with its transaction id (what the old cursor carried in the clear). */
    const positions = {
      '/journal/entries': `SELECT id::text, commit_xid::text AS xid FROM journal_entries WHERE id = $1`,
      '/events': `SELECT id::text, commit_xid::text AS xid FROM webhook_outbox WHERE (body::jsonb #>> '{data,operation_id}') = $1`,
    };
    const positionOf = async (list: keyof typeof positions, posted: { id: string; operation_id: string }): Promise<{ id: string; xid: string }> =>
      (await app.apps.dataSource.query(positions[list], [list === '/events' ? posted.operation_id : posted.id]))[0];

    for (const list of Object.keys(positions) as Array<keyof typeof positions>) {
      it(`GET ${list}: no transaction id, row id or counter in the cursor; another tenant's 25 postings change nothing in it`, async () => {
        const mine = await aSandboxProject(app);
        const stranger = await aSandboxProject(app);
        const first = await post(mine);
        expect(first.status).toBe(201);
        const before = await cursorOf(mine, list);
        const row = await positionOf(list, first.body);
        expect(row.xid).toMatch(/^\d+$/);
        for (const secret of [row.xid, row.id, row.id.replace(/-/g, '')]) {
          expect(before).not.toContain(secret);
          expect(decoded(before)).not.toContain(secret);
        }
        expect(decoded(before)).not.toContain(Buffer.from(row.id.replace(/-/g, ''), 'hex').toString('latin1'));
        expect(before).toMatch(/^v1\.[A-Za-z0-9_-]{70}$/);

        for (let i = 0; i < 25; i++) expect((await post(stranger)).status).toBe(201);
        // the same place in my list: the same cursor, however much others wrote in between
        expect(await cursorOf(mine, list)).toBe(before);
        expect((await app.partner().get(`${SANDBOX}${list}?after=${before}`).set('Authorization', `Bearer ${mine.token}`)).body.data).toEqual([]);
        const second = await post(mine);
        const after = await cursorOf(mine, list);
        const row2 = await positionOf(list, second.body);
        expect(BigInt(row2.xid) - BigInt(row.xid)).toBeGreaterThanOrEqual(25n);
        expect(after).not.toBe(before);
        expect(after).toMatch(/^v1\.[A-Za-z0-9_-]{70}$/);
        expect(decoded(after)).not.toContain(row2.xid);
        // still bound to the caller: the stranger cannot follow it
        const theirs = await app.partner().get(`${SANDBOX}${list}?after=${after}`).set('Authorization', `Bearer ${stranger.token}`);
        expect(theirs.status).toBe(400);
        expect(theirs.body.errors).toEqual([expect.objectContaining({ pointer: '/after' })]);
      });
    }
  });
});

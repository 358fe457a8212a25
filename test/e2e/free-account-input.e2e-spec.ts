import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { randomBase62 } from '../../src/modules/auth/access';
import { OAuthClientService } from '../../src/modules/auth/consent/application/oauth-client.service';
import { OAUTH_CLIENT_PER_MINUTE } from '../../src/modules/rate-limit';
import { aConsentSetup, REDIRECT_URI } from '../support/consent-fixtures';
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
    const routes = [
      '/accounts',
      '/tax-codes',
      '/grant',
      '/journal/entries',
      `/journal/entries/${anId}`,
      `/journal/entries/${anId}/attachments/${anId}`,
      `/operations/${anId}`,
      '/events',
    ];
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

  describe("Cursors reveal nothing of the service (issue: base64 of the global transaction id; another tenant's 25 postings moved it by 91)", () => {
    const post = (p: SandboxProject) =>
      app
        .partner()
        .post(`${SANDBOX}/journal`)
        .set('Authorization', `Bearer ${p.token}`)
        .set('Idempotency-Key', randomUUID())
        .send(aJournal(ids(p)));
    const cursorOf = async (p: SandboxProject, list: string) => {
      const res = await app.partner().get(`${SANDBOX}${list}`).set('Authorization', `Bearer ${p.token}`);
      expect(res.status).toBe(200);
      return res.body.next_cursor as string;
    };
    /** Everything a reader could decode from a cursor: each dot-separated part as base64url, as text. */
    const decoded = (cursor: string) =>
      cursor
        .split('.')
        .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
        .join(' ');

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

describe(`Token endpoint (CONTRACT §12, §20; issue 43 finding 9): over the anonymous limit a client id nobody registered is 429 before any look-up; a registered client has ${OAUTH_CLIENT_PER_MINUTE}/min of its own`, () => {
  const ANONYMOUS_LIMIT = 5;
  let app: TestApp;
  let shares = 0;
  const aSharedAddress = () => `203.0.113.${150 + ++shares}`;

  beforeAll(async () => {
    app = await createTestApp({ trustProxy: 'loopback', rateLimitAnonymousPerMinute: ANONYMOUS_LIMIT });
  });
  afterAll(() => app.close());

  const token = (address: string, form: Record<string, string>) =>
    app
      .partner()
      .post('/oauth/token')
      .set('X-Forwarded-For', address)
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43), ...form });
  /** A stranger puts the address over the anonymous limit with credentials that are not even well-formed. */
  const exhaust = async (address: string) => {
    for (let i = 0; i < ANONYMOUS_LIMIT; i++) expect((await token(address, { client_id: 'guess', client_secret: 'guess' })).status).toBe(401);
    expect((await token(address, { client_id: 'guess', client_secret: 'guess' })).status).toBe(429);
  };

  it('a well-formed client id nobody registered, and a registered id with a guessed secret: 429 with Retry-After, and no look-up (issue: 401 invalid_client after a look-up)', async () => {
    const s = await aConsentSetup(app);
    const address = aSharedAddress();
    await exhaust(address);
    const lookUps = jest.spyOn(app.apps.partner.get(OAuthClientService, { strict: false }), 'authenticate');
    try {
      for (const form of [
        { client_id: randomUUID(), client_secret: `hcs_${randomBase62(40)}` },
        { client_id: s.client.client_id, client_secret: `hcs_${randomBase62(40)}` },
      ]) {
        const res = await token(address, form);
        expect(res.status).toBe(429);
        expect(res.body.error).toBe('rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(lookUps).not.toHaveBeenCalled();
    } finally {
      lookUps.mockRestore();
    }
  });

  it(`a registered client is served on an address over the anonymous limit, under ${OAUTH_CLIENT_PER_MINUTE} a minute of its own (issue: no limit of its own)`, async () => {
    const s = await aConsentSetup(app);
    const address = aSharedAddress();
    await exhaust(address);
    const startedAt = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < OAUTH_CLIENT_PER_MINUTE + 10 && !statuses.includes(429); i++) statuses.push((await token(address, s.client)).status);
    const served = statuses.filter((st) => st !== 429);
    // authenticated, then the made-up code refused: the client got through the address's limit every time
    expect(new Set(served)).toEqual(new Set([400]));
    // a one-minute window estimated from two fixed minutes may give back up to limit × run/60 s when the run crosses a minute
    expect(served.length).toBeGreaterThanOrEqual(OAUTH_CLIENT_PER_MINUTE);
    expect(served.length).toBeLessThanOrEqual(OAUTH_CLIENT_PER_MINUTE + Math.ceil((OAUTH_CLIENT_PER_MINUTE * (Date.now() - startedAt)) / 60_000));
    expect(statuses[statuses.length - 1]).toBe(429);
    // another registered client on the same address still has its own minute
    const other = await aConsentSetup(app);
    expect((await token(address, other.client)).status).toBe(400);
  });
});

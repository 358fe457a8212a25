import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess, consolePost } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const MAX = 99999999999999;
const SUCCESS = {
  valid: true,
  posted: false,
  checked: ['input', 'grant', 'references'],
  not_checked: ['commit_time_period_locks', 'accounting_transaction'],
};

describe('POST /journal/prepare (seed 2.1–2.3, 4.1; CONTRACT §3–5, §7)', () => {
  let app: TestApp;
  let p: SandboxProject;
  let a: string[];

  beforeAll(async () => {
    app = await createTestApp();
    p = await aSandboxProject(app);
    a = p.accounts.map((x) => x.id);
  });
  afterAll(() => app.close());

  const prepare = (body: unknown, token = p.token, base = SANDBOX) =>
    app
      .partner()
      .post(`${base}/journal/prepare`)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const raw = (text: string) =>
    app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${p.token}`).set('Content-Type', 'application/json').send(text);
  const two = (extra: Record<string, unknown> = {}, line0: Record<string, unknown> = {}, line1: Record<string, unknown> = {}) => ({
    posting_date: '2026-11-20',
    ...extra,
    lines: [
      { account_id: a[0], debit_minor: 500, ...line0 },
      { account_id: a[1], credit_minor: 500, ...line1 },
    ],
  });
  const pointers = (res: { body: { errors?: Array<{ pointer: string }> } }) => (res.body.errors ?? []).map((e) => e.pointer).sort();

  it('answers a valid journal with exactly the four-key projection', async () => {
    const res = await prepare(aJournal(a));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SUCCESS);
  });

  describe('valid edges → 200', () => {
    it.each<[string, () => unknown]>([
      ['a leap day', () => two({ posting_date: '2024-02-29' })],
      [
        'all optional fields null',
        () =>
          two(
            { transaction_date: null, document_date: null, description: null, currency: null },
            { tax_code_id: null, dimension_refs: null, line_text: null, credit_minor: null },
            { debit_minor: null },
          ),
      ],
      ['dates given', () => two({ transaction_date: '2026-11-19', document_date: '2000-02-29' })],
      ['currency DKK', () => two({ currency: 'DKK' })],
      ['a 1000-emoji description', () => two({ description: '😀'.repeat(1000) })],
      ['a 1000-character description', () => two({ description: 'x'.repeat(1000) })],
      ['a 500-emoji line_text', () => two({}, { line_text: '🧾'.repeat(500) })],
      ['the maximum amount', () => two({}, { debit_minor: MAX }, { credit_minor: MAX })],
      ['20 dimension_refs of any shape', () => two({}, { dimension_refs: [1, 'a', null, true, { x: [1] }, [2], ...Array(14).fill({})] })],
      ['an upper-case account uuid', () => two({}, { account_id: a[0].toUpperCase() })],
    ])('%s', async (_name, build) => {
      const res = await prepare(build());
      expect(res.status).toBe(200);
      expect(res.body).toEqual(SUCCESS);
    });

    it('500 lines', async () => {
      expect((await prepare(aJournal(a, { lines: 500 }))).status).toBe(200);
    });

    it('a tax code of the organization', async () => {
      expect((await prepare(two({}, { tax_code_id: p.tax_codes[0].id }))).status).toBe(200);
    });

    it('1e2 in the JSON text is the integer 100', async () => {
      const res = await raw(`{"posting_date":"2026-11-20","lines":[{"account_id":"${a[0]}","debit_minor":1e2},{"account_id":"${a[1]}","credit_minor":100}]}`);
      expect(res.status).toBe(200);
    });

    it('ignores an Idempotency-Key header, even an invalid one', async () => {
      for (const key of ['', 'a b', randomUUID()]) {
        const res = await app
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${p.token}`)
          .set('Idempotency-Key', key)
          .send(aJournal(a));
        expect(res.status).toBe(200);
      }
    });
  });

  describe('invalid input → 400 with a pointer per offending field', () => {
    it.each<[string, () => unknown, string, string[]]>([
      ['posting_date missing', () => ({ lines: two().lines }), 'invalid_input', ['/posting_date']],
      ['posting_date null', () => two({ posting_date: null }), 'invalid_input', ['/posting_date']],
      ['posting_date 2023-02-29', () => two({ posting_date: '2023-02-29' }), 'invalid_input', ['/posting_date']],
      ['posting_date month 13', () => two({ posting_date: '2024-13-01' }), 'invalid_input', ['/posting_date']],
      ['posting_date with a time', () => two({ posting_date: '2026-11-20T10:00:00Z' }), 'invalid_input', ['/posting_date']],
      ['transaction_date not a date', () => two({ transaction_date: '20.11.2026' }), 'invalid_input', ['/transaction_date']],
      ['document_date a number', () => two({ document_date: 20261120 }), 'invalid_input', ['/document_date']],
      ['description empty', () => two({ description: '' }), 'invalid_input', ['/description']],
      ['description 1001 emoji', () => two({ description: '😀'.repeat(1001) }), 'invalid_input', ['/description']],
      ['currency EUR', () => two({ currency: 'EUR' }), 'invalid_input', ['/currency']],
      ['one line', () => ({ posting_date: '2026-11-20', lines: [two().lines[0]] }), 'invalid_input', ['/lines']],
      [
        '501 lines',
        () => {
          const j = aJournal(a, { lines: 502 });
          j.lines.pop();
          return j;
        },
        'invalid_input',
        ['/lines'],
      ],
      ['lines not an array', () => ({ posting_date: '2026-11-20', lines: { 0: 1 } }), 'invalid_input', ['/lines']],
      ['lines null', () => ({ posting_date: '2026-11-20', lines: null }), 'invalid_input', ['/lines']],
      ['a line that is not an object', () => ({ posting_date: '2026-11-20', lines: [two().lines[0], 5] }), 'invalid_input', ['/lines/1']],
      ['account_id not a uuid', () => two({}, { account_id: 'konto-1000' }), 'invalid_input', ['/lines/0/account_id']],
      ['account_id null', () => two({}, { account_id: null }), 'invalid_input', ['/lines/0/account_id']],
      ['account_id missing', () => ({ posting_date: '2026-11-20', lines: [{ debit_minor: 1 }, two().lines[1]] }), 'invalid_input', ['/lines/0/account_id']],
      ['tax_code_id not a uuid', () => two({}, { tax_code_id: 'U25' }), 'invalid_input', ['/lines/0/tax_code_id']],
      ['line_text empty', () => two({}, { line_text: '' }), 'invalid_input', ['/lines/0/line_text']],
      ['line_text 501 characters', () => two({}, { line_text: 'x'.repeat(501) }), 'invalid_input', ['/lines/0/line_text']],
      ['21 dimension_refs', () => two({}, { dimension_refs: Array(21).fill(1) }), 'invalid_input', ['/lines/0/dimension_refs']],
      ['dimension_refs not an array', () => two({}, { dimension_refs: { a: 1 } }), 'invalid_input', ['/lines/0/dimension_refs']],
      ['both sides > 0', () => two({}, { credit_minor: 1 }), 'invalid_input', ['/lines/0']],
      ['neither side > 0', () => two({}, { debit_minor: 0 }), 'invalid_input', ['/lines/0']],
      ['an unknown top-level field', () => two({ colour: 'red' }), 'invalid_input', ['/colour']],
      ['an unknown line field', () => two({}, { colour: 'red' }), 'invalid_input', ['/lines/0/colour']],
      ['organization_id in the payload', () => two({ organization_id: randomUUID() }), 'invalid_input', ['/organization_id']],
      ['amount max+1', () => two({}, { debit_minor: MAX + 1 }, { credit_minor: MAX + 1 }), 'invalid_amount', ['/lines/0/debit_minor', '/lines/1/credit_minor']],
      ['amount negative', () => two({}, { debit_minor: -1 }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['amount a fraction', () => two({}, { debit_minor: 1.5 }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['amount a string', () => two({}, { debit_minor: '500' }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['amount true', () => two({}, { debit_minor: true }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['amount an array', () => two({}, { debit_minor: [500] }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['amount an object', () => two({}, { debit_minor: { v: 500 } }), 'invalid_amount', ['/lines/0/debit_minor']],
      ['an amount and a non-amount fault', () => two({ posting_date: 'x' }, { debit_minor: -1 }), 'invalid_input', ['/lines/0/debit_minor', '/posting_date']],
    ])('%s → %s at %j', async (_name, build, code, expected) => {
      const res = await prepare(build());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(pointers(res)).toEqual([...expected].sort());
      for (const e of res.body.errors) expect(['invalid_input', 'invalid_amount']).toContain(e.code);
    });

    it('gives each violation its own code when input and amount faults mix', async () => {
      const res = await prepare(two({ posting_date: 'x' }, { debit_minor: -1 }));
      const byPointer = Object.fromEntries(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]));
      expect(byPointer).toEqual({ '/posting_date': 'invalid_input', '/lines/0/debit_minor': 'invalid_amount' });
    });

    it('judges the line rule only on valid amounts', async () => {
      const res = await prepare(two({}, { debit_minor: -1, credit_minor: 0 }));
      expect(res.body.code).toBe('invalid_amount');
      expect(pointers(res)).toEqual(['/lines/0/debit_minor']);
    });

    it('refuses __proto__ and constructor as unknown fields, at every level', async () => {
      const res = await raw(
        `{"posting_date":"2026-11-20","__proto__":{"x":1},"lines":[{"account_id":"${a[0]}","debit_minor":1,"constructor":{}},{"account_id":"${a[1]}","credit_minor":1}]}`,
      );
      expect(res.status).toBe(400);
      expect(pointers(res)).toEqual(['/__proto__', '/lines/0/constructor']);
    });

    it('takes __proto__ and constructor inside dimension_refs items as plain data (any shape is allowed)', async () => {
      const res = await raw(
        `{"posting_date":"2026-11-20","lines":[{"account_id":"${a[0]}","debit_minor":1,"dimension_refs":[{"constructor":{"name":"x"}},{"__proto__":{"admin":true}},"constructor"]},{"account_id":"${a[1]}","credit_minor":1}]}`,
      );
      expect(res.status).toBe(200);
    });

    it('escapes pointers per RFC 6901', async () => {
      const res = await prepare(two({ 'a/b~c': 1 }));
      expect(pointers(res)).toEqual(['/a~1b~0c']);
    });

    it('checks the token before the input, and the input before the balance', async () => {
      const noToken = await app.partner().post(`${SANDBOX}/journal/prepare`).send({ nonsense: true });
      expect(noToken.status).toBe(401);
      const badAndUnbalanced = await prepare(two({ description: '' }, { debit_minor: 1 }));
      expect(badAndUnbalanced.body.code).toBe('invalid_input');
    });
  });

  describe('balance (exact, bigint)', () => {
    it('accepts 500 lines of the maximum amount, beyond 2^53', async () => {
      const res = await prepare(aJournal(a, { lines: 500, amount: MAX }));
      expect(res.status).toBe(200);
    });

    it('refuses a one-øre difference on 500 maximum lines with 422 journal_unbalanced', async () => {
      const body = aJournal(a, { lines: 500, amount: MAX });
      body.lines[499].credit_minor = MAX - 1;
      const res = await prepare(body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('journal_unbalanced');
    });

    it('checks the balance before the references', async () => {
      const other = await aSandboxProject(app, 'Other');
      const res = await prepare(two({}, { account_id: other.accounts[0].id, debit_minor: 2 }));
      expect(res.body.code).toBe('journal_unbalanced');
    });
  });

  describe('references → 422 reference_not_allowed, identical for every cause', () => {
    it('gives the same body for a missing, a foreign, an inactive and an ungranted account', async () => {
      const own = await aSandboxProject(app, 'Own');
      const other = await aSandboxProject(app, 'Foreign');
      const inactive = own.accounts[7].id;
      expect((await consolePost(app, `/accounts/${inactive}/deactivate`)).status).toBe(200);
      const bodies: unknown[] = [];
      for (const bad of [randomUUID(), other.accounts[0].id, inactive]) {
        const res = await prepare(
          {
            posting_date: '2026-11-20',
            lines: [
              { account_id: bad, debit_minor: 7 },
              { account_id: own.accounts[0].id, credit_minor: 7 },
            ],
          },
          own.token,
        );
        expect(res.status).toBe(422);
        expect(res.text).not.toContain(other.accounts[0].name);
        expect(res.text).not.toContain(other.organization_id);
        bodies.push({ ...res.body, request_id: undefined });
      }
      const prod = await aProductionAccess(app);
      const outside = prod.organization.accounts.at(-1)!.id;
      const res = await prepare(
        {
          posting_date: '2026-11-20',
          lines: [
            { account_id: outside, debit_minor: 7 },
            { account_id: prod.grantedAccountIds[0], credit_minor: 7 },
          ],
        },
        prod.token,
        PRODUCTION,
      );
      expect(res.status).toBe(422);
      bodies.push({ ...res.body, request_id: undefined });
      expect(bodies[0]).toEqual({
        type: 'urn:partner-api:error:reference_not_allowed',
        title: expect.any(String),
        status: 422,
        code: 'reference_not_allowed',
        detail: expect.any(String),
        errors: [{ pointer: '/lines/0/account_id', code: 'reference_not_allowed', detail: expect.any(String) }],
      });
      for (const b of bodies) expect(b).toEqual(bodies[0]);
    });

    it('lists one entry per offending line, and unknown tax codes', async () => {
      const other = await aSandboxProject(app, 'Third');
      const res = await prepare({
        posting_date: '2026-11-20',
        lines: [
          { account_id: other.accounts[0].id, debit_minor: 1 },
          { account_id: a[1], credit_minor: 1, tax_code_id: other.tax_codes[0].id },
          { account_id: randomUUID(), debit_minor: 1 },
          { account_id: a[2], credit_minor: 1 },
        ],
      });
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/lines/0/account_id', '/lines/1/tax_code_id', '/lines/2/account_id']);
    });
  });

  it('writes nothing anywhere: every table has the same rows before and after a batch of prepares', async () => {
    const db = app.apps.partner.get(DataSource);
    // the webhook dispatcher legitimately updates outbox rows left by other tests: stop it first
    await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
    // request_log is the developer console's record of every call (CONTRACT §15), written for each
    // prepare by design; the books and every other table stay as they were
    const tables: Array<{ tablename: string }> = await db.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'request_log' ORDER BY tablename`,
    );
    expect(tables.length).toBeGreaterThan(15);
    const snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const { tablename } of tables) {
        out[tablename] = await db.query(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h, count(*)::int AS n FROM "${tablename}" t`);
      }
      return out;
    };
    const before = await snapshot();
    const other = await aSandboxProject(app, 'Batch');
    const afterProvision = await snapshot();
    expect(afterProvision).not.toEqual(before); // the snapshot does see writes
    const bodies = [
      aJournal(a),
      aJournal(a, { lines: 500 }),
      two({}, { debit_minor: -1 }),
      two({}, { debit_minor: 9 }),
      two({}, { account_id: other.accounts[0].id }),
    ];
    const statuses = [];
    for (const body of bodies) statuses.push((await prepare(body)).status);
    expect(statuses).toEqual([200, 200, 400, 422, 422]);
    expect(await snapshot()).toEqual(afterProvision);
  });
});

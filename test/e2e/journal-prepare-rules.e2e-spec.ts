import type { Response } from 'supertest';
import { WebhookDispatcher } from '../../src/modules/webhooks/application/webhook-dispatcher';
import { generateAccessToken } from '../../src/modules/auth/access/domain/access-token';
import { aJournal, aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * POST /journal/prepare over HTTP: seed 2.1–2.3, 4.1, 7, 8 and CONTRACT §3–5, §7. Expected codes and
 * pointers are written out by hand from the contract, never taken from the code under test.
 */

const MAX = 99_999_999_999_999; // seed 2.2 / §8, written out, not imported
const EMOJI = '😀'; // one code point, two UTF-16 units, four UTF-8 bytes
const SUCCESS = {
  valid: true,
  posted: false,
  checked: ['input', 'grant', 'references'],
  not_checked: ['commit_time_period_locks', 'accounting_transaction'],
};
const AMOUNT_DETAIL = 'must be an integer from 0 to 99999999999999';

type Body = Record<string, any>;
type Expected = { status: 200 } | { status: 400; code: 'invalid_input' | 'invalid_amount'; errors: Array<[string, string]> };

const ok: Expected = { status: 200 };
/** One violation at `pointer`; the overall code is that violation's own code. */
const bad = (pointer: string, code: 'invalid_input' | 'invalid_amount' = 'invalid_input'): Expected => ({
  status: 400,
  code,
  errors: [[pointer, code]],
});

describe('POST /journal/prepare (seed 2.1–2.3, 4.1; CONTRACT §3–5, §7)', () => {
  let app: TestApp;
  let project: SandboxProject;
  /** another sandbox project: its own organization, accounts and tax codes */
  let other: SandboxProject;

  beforeAll(async () => {
    app = await createTestApp();
    project = await aSandboxProject(app, 'Prepare project');
    other = await aSandboxProject(app, 'Someone else');
  }, 60_000); // jest ignores `testTimeout` inside a `projects` entry
  afterAll(() => app.close());

  const account = (i: number) => project.accounts[i].id;
  const accounts = () => project.accounts.map((a) => a.id);

  /** A fresh valid two-line journal: line 0 debits 10000 øre, line 1 credits them. */
  function journal(): Body {
    return {
      posting_date: '2026-11-20',
      lines: [
        { account_id: account(0), debit_minor: 10000 },
        { account_id: account(1), credit_minor: 10000 },
      ],
    };
  }

  function prepare(body: unknown, token: string | null = project.token, base = SANDBOX) {
    let req = app.partner().post(`${base}/journal/prepare`).set('Content-Type', 'application/json');
    if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
    // a string is sent as the raw JSON text: keys such as "__proto__" survive only that way
    return req.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  function expectSuccess(res: Response): void {
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: SUCCESS });
    expect(Object.keys(res.body)).toEqual(['valid', 'posted', 'checked', 'not_checked']);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  }

  function expectProblem(res: Response, status: number, code: string): void {
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.type).toBe(`urn:partner-api:error:${code}`);
    expect(res.body.status).toBe(status);
    expect(typeof res.body.title).toBe('string');
    expect(typeof res.body.detail).toBe('string');
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  }

  /** The problem's `errors[]` as [pointer, code] pairs, in order; each entry has exactly three members. */
  function errorsOf(res: Response): Array<[string, string]> {
    const errors = res.body.errors as Array<Record<string, unknown>>;
    expect(Array.isArray(errors)).toBe(true);
    for (const e of errors) {
      expect(Object.keys(e).sort()).toEqual(['code', 'detail', 'pointer']);
      expect(typeof e.detail).toBe('string');
      expect((e.detail as string).length).toBeGreaterThan(0);
    }
    return errors.map((e) => [e.pointer as string, e.code as string]);
  }

  async function check(body: unknown, expected: Expected): Promise<Response> {
    const res = await prepare(body);
    if (expected.status === 200) {
      expectSuccess(res);
    } else {
      expectProblem(res, expected.status, expected.code);
      expect(errorsOf(res)).toEqual(expected.errors);
    }
    return res;
  }

  type Case = [name: string, mutate: (body: Body) => unknown, expected: Expected];
  const set = (path: (b: Body) => Body, key: string, value: unknown) => (b: Body) => {
    path(b)[key] = value;
  };
  const unset = (path: (b: Body) => Body, key: string) => (b: Body) => {
    delete path(b)[key];
  };
  const top = (b: Body) => b;
  const line = (i: number) => (b: Body) => b.lines[i] as Body;

  describe('posting_date (required date)', () => {
    it.each<Case>([
      ['a leap day 2024-02-29', set(top, 'posting_date', '2024-02-29'), ok],
      ['2000-02-29 (divisible by 400)', set(top, 'posting_date', '2000-02-29'), ok],
      ['2023-02-29 (no leap year)', set(top, 'posting_date', '2023-02-29'), bad('/posting_date')],
      ['1900-02-29 (century, no leap year)', set(top, 'posting_date', '1900-02-29'), bad('/posting_date')],
      ['month 13', set(top, 'posting_date', '2024-13-01'), bad('/posting_date')],
      ['month 00', set(top, 'posting_date', '2024-00-10'), bad('/posting_date')],
      ['April 31', set(top, 'posting_date', '2024-04-31'), bad('/posting_date')],
      ['day 00', set(top, 'posting_date', '2024-01-00'), bad('/posting_date')],
      ['a time part', set(top, 'posting_date', '2024-02-29T00:00:00Z'), bad('/posting_date')],
      ['a date and a space', set(top, 'posting_date', '2024-02-29 '), bad('/posting_date')],
      ['a two-digit year', set(top, 'posting_date', '24-02-29'), bad('/posting_date')],
      ['slashes', set(top, 'posting_date', '2024/02/29'), bad('/posting_date')],
      ['a number', set(top, 'posting_date', 20240229), bad('/posting_date')],
      ['an empty string', set(top, 'posting_date', ''), bad('/posting_date')],
      ['null (required)', set(top, 'posting_date', null), bad('/posting_date')],
      ['absent (required)', unset(top, 'posting_date'), bad('/posting_date')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe.each(['transaction_date', 'document_date'])('%s (optional date)', (field) => {
    it.each<Case>([
      ['a leap day 2024-02-29', set(top, field, '2024-02-29'), ok],
      ['null (optional: not given)', set(top, field, null), ok],
      ['absent', unset(top, field), ok],
      ['2023-02-29', set(top, field, '2023-02-29'), bad(`/${field}`)],
      ['2024-13-01', set(top, field, '2024-13-01'), bad(`/${field}`)],
      ['a time part', set(top, field, '2024-02-29T10:00'), bad(`/${field}`)],
      ['a number', set(top, field, 1), bad(`/${field}`)],
      ['an empty string', set(top, field, ''), bad(`/${field}`)],
      ['an object', set(top, field, {}), bad(`/${field}`)],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe('description (optional, 1–1000 code points)', () => {
    it.each<Case>([
      ['1 character', set(top, 'description', 'x'), ok],
      ['1000 characters', set(top, 'description', 'a'.repeat(1000)), ok],
      ['1001 characters', set(top, 'description', 'a'.repeat(1001)), bad('/description')],
      ['1000 emoji (2000 UTF-16 units)', set(top, 'description', EMOJI.repeat(1000)), ok],
      ['1001 emoji', set(top, 'description', EMOJI.repeat(1001)), bad('/description')],
      ['999 emoji and 1 letter', set(top, 'description', EMOJI.repeat(999) + 'a'), ok],
      ['999 emoji and 2 letters', set(top, 'description', EMOJI.repeat(999) + 'ab'), bad('/description')],
      ['1000 Danish letters', set(top, 'description', 'æøå'.repeat(333) + 'Æ'), ok],
      ['one space (not trimmed)', set(top, 'description', ' '), ok],
      ['an empty string', set(top, 'description', ''), bad('/description')],
      ['null', set(top, 'description', null), ok],
      ['absent', unset(top, 'description'), ok],
      ['a number', set(top, 'description', 5), bad('/description')],
      ['an array of a string', set(top, 'description', ['a']), bad('/description')],
      ['an object with a constructor member', set(top, 'description', { constructor: 1 }), bad('/description')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe('currency (optional, only "DKK")', () => {
    it.each<Case>([
      ['"DKK"', set(top, 'currency', 'DKK'), ok],
      ['null → "DKK"', set(top, 'currency', null), ok],
      ['absent → "DKK"', unset(top, 'currency'), ok],
      ['"EUR"', set(top, 'currency', 'EUR'), bad('/currency')],
      ['"dkk" (case matters)', set(top, 'currency', 'dkk'), bad('/currency')],
      ['"DKK " (not trimmed)', set(top, 'currency', 'DKK '), bad('/currency')],
      ['an empty string', set(top, 'currency', ''), bad('/currency')],
      ['the ISO number 208', set(top, 'currency', 208), bad('/currency')],
      ['["DKK"]', set(top, 'currency', ['DKK']), bad('/currency')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe('lines (required, 2–500)', () => {
    const balanced = (n: number) => aJournal(accounts(), { lines: n }).lines;
    it.each<Case>([
      ['1 line', (b) => void (b.lines = balanced(2).slice(0, 1)), bad('/lines')],
      ['2 lines', (b) => void (b.lines = balanced(2)), ok],
      ['500 lines', (b) => void (b.lines = balanced(500)), ok],
      ['501 lines', (b) => void (b.lines = [...balanced(500), { account_id: account(2), debit_minor: 0, credit_minor: 1 }]), bad('/lines')],
      ['no lines', set(top, 'lines', []), bad('/lines')],
      ['an object', set(top, 'lines', { 0: { account_id: 'x' } }), bad('/lines')],
      ['an object with a constructor member', set(top, 'lines', { constructor: 1 }), bad('/lines')],
      ['a string', set(top, 'lines', 'lines'), bad('/lines')],
      ['a number', set(top, 'lines', 2), bad('/lines')],
      ['null (required)', set(top, 'lines', null), bad('/lines')],
      ['absent (required)', unset(top, 'lines'), bad('/lines')],
      ['a line that is a number', (b) => void (b.lines[1] = 5), bad('/lines/1')],
      ['a line that is null', (b) => void (b.lines[1] = null), bad('/lines/1')],
      ['a line that is an array', (b) => void (b.lines[0] = []), bad('/lines/0')],
      ['a line that is a string', (b) => void (b.lines[0] = 'line'), bad('/lines/0')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });

    it('reports a 501-line journal once, at /lines, without examining its lines (CONTRACT §4 maxItems)', async () => {
      const body = journal();
      body.lines = [...balanced(500), { account_id: 'nope', credit_minor: 0 }];
      await check(body, { status: 400, code: 'invalid_input', errors: [['/lines', 'invalid_input']] });
    });
  });

  describe('account_id (required uuid)', () => {
    it.each<Case>([
      ['upper-case uuid of a project account', (b) => void (b.lines[0].account_id = account(0).toUpperCase()), ok],
      ['mixed-case uuid', (b) => void (b.lines[1].account_id = account(1).replace(/[a-f]/, (c) => c.toUpperCase())), ok],
      ['not a uuid', set(line(0), 'account_id', 'not-a-uuid'), bad('/lines/0/account_id')],
      ['a uuid without hyphens', (b) => void (b.lines[0].account_id = account(0).replace(/-/g, '')), bad('/lines/0/account_id')],
      ['a uuid in braces', (b) => void (b.lines[0].account_id = `{${account(0)}}`), bad('/lines/0/account_id')],
      ['a uuid with a trailing space', (b) => void (b.lines[1].account_id = `${account(1)} `), bad('/lines/1/account_id')],
      ['a uuid with a non-hex digit', (b) => void (b.lines[1].account_id = `${account(1).slice(0, -1)}g`), bad('/lines/1/account_id')],
      ['a number', set(line(0), 'account_id', 123), bad('/lines/0/account_id')],
      ['an empty string', set(line(0), 'account_id', ''), bad('/lines/0/account_id')],
      ['null (required)', set(line(0), 'account_id', null), bad('/lines/0/account_id')],
      ['absent (required)', unset(line(1), 'account_id'), bad('/lines/1/account_id')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe('amounts (integers 0…99999999999999, nothing coerced)', () => {
    const both = (debit: unknown, credit: unknown) => (b: Body) => {
      b.lines[0].debit_minor = debit;
      b.lines[1].credit_minor = credit;
    };
    it.each<Case>([
      ['the maximum on both sides', both(MAX, MAX), ok],
      ['1 øre on both sides', both(1, 1), ok],
      [
        'maximum + 1',
        both(MAX + 1, MAX + 1),
        {
          status: 400,
          code: 'invalid_amount',
          errors: [
            ['/lines/0/debit_minor', 'invalid_amount'],
            ['/lines/1/credit_minor', 'invalid_amount'],
          ],
        },
      ],
      ['a debit of maximum + 1', set(line(0), 'debit_minor', MAX + 1), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['a negative debit', set(line(0), 'debit_minor', -1), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['a negative credit', set(line(1), 'credit_minor', -10000), bad('/lines/1/credit_minor', 'invalid_amount')],
      ['a fraction', set(line(0), 'debit_minor', 1.5), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['a string of digits', set(line(0), 'debit_minor', '100'), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['a string "0"', set(line(1), 'debit_minor', '0'), bad('/lines/1/debit_minor', 'invalid_amount')],
      ['true', set(line(0), 'debit_minor', true), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['false', set(line(0), 'credit_minor', false), bad('/lines/0/credit_minor', 'invalid_amount')],
      ['an empty array', set(line(0), 'debit_minor', []), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['an array of the amount', set(line(0), 'debit_minor', [10000]), bad('/lines/0/debit_minor', 'invalid_amount')],
      ['an empty object', set(line(1), 'credit_minor', {}), bad('/lines/1/credit_minor', 'invalid_amount')],
      ['null on the zero side → 0', set(line(0), 'credit_minor', null), ok],
      ['0 on the zero side', set(line(1), 'debit_minor', 0), ok],
      ['null on the amount side → 0, a line with neither side', set(line(0), 'debit_minor', null), bad('/lines/0')],
      ['both sides greater than 0', set(line(0), 'credit_minor', 1), bad('/lines/0')],
      ['both sides 0', (b) => void (b.lines[1] = { account_id: account(1), debit_minor: 0, credit_minor: 0 }), bad('/lines/1')],
      ['neither side given', (b) => void (b.lines[1] = { account_id: account(1) }), bad('/lines/1')],
      // CONTRACT §5: the line rule is judged only when both amounts are valid
      [
        'an invalid debit beside a valid credit: only the amount',
        (b) => void (b.lines[0] = { account_id: account(0), debit_minor: -5, credit_minor: 10000 }),
        bad('/lines/0/debit_minor', 'invalid_amount'),
      ],
      [
        'an invalid credit beside a zero debit: only the amount',
        (b) => void (b.lines[1] = { account_id: account(1), debit_minor: 0, credit_minor: '10000' }),
        bad('/lines/1/credit_minor', 'invalid_amount'),
      ],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });

    it.each([
      ['1e2', '100'],
      ['1E2', '100'],
      ['1.0e2', '100'],
      ['100.0', '1e2'],
      ['9.9999999999999e13', '99999999999999'],
    ])('reads the JSON number %s as the integer it is (raw text)', async (debit, credit) => {
      const raw = `{"posting_date":"2026-11-20","lines":[{"account_id":"${account(0)}","debit_minor":${debit}},{"account_id":"${account(1)}","credit_minor":${credit}}]}`;
      await check(raw, ok);
    });

    it.each([
      ['1e14 (maximum + 1)', '1e14', 'invalid_amount'],
      ['1e400 (infinite as a double)', '1e400', 'invalid_amount'],
      ['-0.5', '-0.5', 'invalid_amount'],
    ])('refuses the raw JSON number %s', async (_name, debit) => {
      const raw = `{"posting_date":"2026-11-20","lines":[{"account_id":"${account(0)}","debit_minor":${debit}},{"account_id":"${account(1)}","credit_minor":100}]}`;
      await check(raw, bad('/lines/0/debit_minor', 'invalid_amount'));
    });

    it('names the amount bound in the detail of an amount violation', async () => {
      const body = journal();
      body.lines[0].debit_minor = 1.5;
      const res = await prepare(body);
      expectProblem(res, 400, 'invalid_amount');
      expect(res.body.errors).toEqual([{ pointer: '/lines/0/debit_minor', code: 'invalid_amount', detail: AMOUNT_DETAIL }]);
    });
  });

  describe('dimension_refs (optional array, at most 20, any item shape)', () => {
    const shapes: unknown[] = [null, 1, -2.5, 'a', '', true, {}, [], { id: 'x', nested: { deep: [1, 2] } }, [null], { constructor: 1 }];
    it.each<Case>([
      [
        '20 items',
        set(
          line(0),
          'dimension_refs',
          Array.from({ length: 20 }, (_, i) => ({ dim: i })),
        ),
        ok,
      ],
      [
        '21 items',
        set(
          line(0),
          'dimension_refs',
          Array.from({ length: 21 }, (_, i) => ({ dim: i })),
        ),
        bad('/lines/0/dimension_refs'),
      ],
      ['items of every JSON shape', set(line(1), 'dimension_refs', shapes), ok],
      [
        '20 nulls',
        set(
          line(1),
          'dimension_refs',
          Array.from({ length: 20 }, () => null),
        ),
        ok,
      ],
      ['an empty array', set(line(0), 'dimension_refs', []), ok],
      ['null → []', set(line(0), 'dimension_refs', null), ok],
      ['absent', unset(line(0), 'dimension_refs'), ok],
      ['an object', set(line(0), 'dimension_refs', {}), bad('/lines/0/dimension_refs')],
      ['a string', set(line(1), 'dimension_refs', 'dept-1'), bad('/lines/1/dimension_refs')],
      ['a number', set(line(1), 'dimension_refs', 0), bad('/lines/1/dimension_refs')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });

    it('accepts items with "__proto__" and "constructor" members sent as raw JSON', async () => {
      const raw = `{"posting_date":"2026-11-20","lines":[{"account_id":"${account(0)}","debit_minor":5,"dimension_refs":[{"__proto__":[]},{"__proto__":null},{"constructor":{"prototype":1}},{"constructor":"x"}]},{"account_id":"${account(1)}","credit_minor":5}]}`;
      await check(raw, ok);
    });

    it('accepts an item nested 256 levels deep and refuses deeper ones with 400 (not a 500 at storage)', async () => {
      const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
      const body = (deep: string) =>
        `{"posting_date":"2026-11-20","lines":[{"account_id":"${account(0)}","debit_minor":5,"dimension_refs":[${deep}]},{"account_id":"${account(1)}","credit_minor":5}]}`;
      await check(body(nested(256)), ok);
      for (const depth of [257, 50_000]) {
        const res = await app
          .partner()
          .post(`${SANDBOX}/journal/prepare`)
          .set('Authorization', `Bearer ${project.token}`)
          .set('Content-Type', 'application/json')
          .send(body(nested(depth)));
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/lines/0/dimension_refs']);
      }
    });
  });

  describe('tax_code_id (optional uuid of a tax code of the organization)', () => {
    it.each<Case>([
      ['null', set(line(0), 'tax_code_id', null), ok],
      ['absent', unset(line(0), 'tax_code_id'), ok],
      ['a tax code of the project', (b) => void (b.lines[0].tax_code_id = project.tax_codes[0].id), ok],
      ['the same tax code in upper case', (b) => void (b.lines[1].tax_code_id = project.tax_codes[0].id.toUpperCase()), ok],
      ['not a uuid', set(line(0), 'tax_code_id', 'MOMS25'), bad('/lines/0/tax_code_id')],
      ['a number', set(line(1), 'tax_code_id', 25), bad('/lines/1/tax_code_id')],
      ['an empty string', set(line(1), 'tax_code_id', ''), bad('/lines/1/tax_code_id')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });

    it.each([
      ['an unknown uuid', () => '0b7c9a4e-1111-4222-8333-944455556666'],
      ['a tax code of another organization', () => other.tax_codes[0].id],
      ['an account id of the project', () => account(2)],
    ])('refuses %s with 422 reference_not_allowed at the tax_code_id', async (_name, id) => {
      const body = journal();
      body.lines[1].tax_code_id = id();
      const res = await prepare(body);
      expectProblem(res, 422, 'reference_not_allowed');
      expect(errorsOf(res)).toEqual([['/lines/1/tax_code_id', 'reference_not_allowed']]);
    });
  });

  describe('line_text (optional, 1–500 code points)', () => {
    it.each<Case>([
      ['500 characters', set(line(0), 'line_text', 'b'.repeat(500)), ok],
      ['501 characters', set(line(0), 'line_text', 'b'.repeat(501)), bad('/lines/0/line_text')],
      ['500 emoji', set(line(1), 'line_text', EMOJI.repeat(500)), ok],
      ['501 emoji', set(line(1), 'line_text', EMOJI.repeat(501)), bad('/lines/1/line_text')],
      ['1 character', set(line(0), 'line_text', 'x'), ok],
      ['an empty string', set(line(0), 'line_text', ''), bad('/lines/0/line_text')],
      ['null', set(line(0), 'line_text', null), ok],
      ['a number', set(line(0), 'line_text', 1), bad('/lines/0/line_text')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });
  });

  describe('unknown fields (seed 2.2 rule 3, 5; CONTRACT §5)', () => {
    it.each<Case>([
      ['a top-level field', set(top, 'colour', 'red'), bad('/colour')],
      ['a field in a line', set(line(0), 'colour', 'red'), bad('/lines/0/colour')],
      ['organization_id (never from the payload)', set(top, 'organization_id', '00000000-0000-4000-8000-000000000000'), bad('/organization_id')],
      ['actor in a line', set(line(1), 'actor', 'me'), bad('/lines/1/actor')],
      ['a null-valued unknown field', set(top, 'posted', null), bad('/posted')],
      ['a key with a slash (RFC 6901 ~1)', set(top, 'a/b', 1), bad('/a~1b')],
      ['a key with a tilde (RFC 6901 ~0)', set(line(1), 'm~n', 1), bad('/lines/1/m~0n')],
      ['a key of both, in the order ~1 then ~0', set(top, '~/', 1), bad('/~0~1')],
      ['the empty key', set(top, '', 1), bad('/')],
      ['a camelCase spelling of a field', set(top, 'postingDate', '2026-11-20'), bad('/postingDate')],
    ])('%s', async (_name, mutate, expected) => {
      const body = journal();
      mutate(body);
      await check(body, expected);
    });

    const lineJson = (i: number, extra = '') =>
      i === 0 ? `{"account_id":"${account(0)}","debit_minor":100${extra}}` : `{"account_id":"${account(1)}","credit_minor":100${extra}}`;
    it.each([
      ['__proto__ at the top', () => `{"__proto__":{"admin":true},"posting_date":"2026-11-20","lines":[${lineJson(0)},${lineJson(1)}]}`, '/__proto__'],
      ['constructor at the top', () => `{"posting_date":"2026-11-20","constructor":{"prototype":{}},"lines":[${lineJson(0)},${lineJson(1)}]}`, '/constructor'],
      ['__proto__ in a line', () => `{"posting_date":"2026-11-20","lines":[${lineJson(0)},${lineJson(1, ',"__proto__":null')}]}`, '/lines/1/__proto__'],
      [
        'constructor in a line',
        () => `{"posting_date":"2026-11-20","lines":[${lineJson(0, ',"constructor":"Object"')},${lineJson(1)}]}`,
        '/lines/0/constructor',
      ],
      ['prototype at the top', () => `{"posting_date":"2026-11-20","prototype":1,"lines":[${lineJson(0)},${lineJson(1)}]}`, '/prototype'],
      [
        'hasOwnProperty in a line',
        () => `{"posting_date":"2026-11-20","lines":[${lineJson(0, ',"hasOwnProperty":1')},${lineJson(1)}]}`,
        '/lines/0/hasOwnProperty',
      ],
    ])('refuses %s sent as raw JSON text with 400 and its pointer', async (_name, raw, pointer) => {
      await check(raw(), bad(pointer));
      // and nothing leaked onto Object.prototype of the service's process
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('lists every unknown field, one entry each', async () => {
      const body = journal();
      body.colour = 1;
      body.lines[0].size = 2;
      body.lines[1].weight = 3;
      body.lines[1].shape = 4;
      await check(body, {
        status: 400,
        code: 'invalid_input',
        errors: [
          ['/colour', 'invalid_input'],
          ['/lines/0/size', 'invalid_input'],
          ['/lines/1/weight', 'invalid_input'],
          ['/lines/1/shape', 'invalid_input'],
        ],
      });
    });
  });

  describe('precedence of invalid_input over invalid_amount, and pointers (CONTRACT §4)', () => {
    it('answers the contract example: a bad date and a bad amount → invalid_input listing both with their own codes', async () => {
      const body = journal();
      body.posting_date = '2023-02-29';
      body.lines[1].credit_minor = 1.5;
      const res = await prepare(body);
      expectProblem(res, 400, 'invalid_input');
      expect(res.body.title).toBe('The input failed validation');
      expect(res.body.detail).toBe('2 violations; first: /posting_date must be a calendar date YYYY-MM-DD');
      expect(res.body.errors).toEqual([
        { pointer: '/posting_date', code: 'invalid_input', detail: 'must be a calendar date YYYY-MM-DD' },
        { pointer: '/lines/1/credit_minor', code: 'invalid_amount', detail: AMOUNT_DETAIL },
      ]);
    });

    it('gives invalid_input for an amount violation beside an unknown field', async () => {
      const body = journal();
      body.lines[0].debit_minor = -1;
      body.lines[1].colour = 'red';
      await check(body, {
        status: 400,
        code: 'invalid_input',
        errors: [
          ['/lines/0/debit_minor', 'invalid_amount'],
          ['/lines/1/colour', 'invalid_input'],
        ],
      });
    });

    it('gives invalid_input for an amount violation beside a line-rule violation of another line', async () => {
      const body = journal();
      body.lines[0].debit_minor = '10000';
      body.lines[1].debit_minor = 5;
      await check(body, {
        status: 400,
        code: 'invalid_input',
        errors: [
          ['/lines/0/debit_minor', 'invalid_amount'],
          ['/lines/1', 'invalid_input'],
        ],
      });
    });

    it('gives invalid_amount with a title of its own when every violation is an amount', async () => {
      const body = aJournal(accounts(), { lines: 6 });
      body.lines[1].credit_minor = true as never;
      body.lines[4].debit_minor = MAX + 1;
      body.lines[5].credit_minor = {} as never;
      const res = await check(body, {
        status: 400,
        code: 'invalid_amount',
        errors: [
          ['/lines/1/credit_minor', 'invalid_amount'],
          ['/lines/4/debit_minor', 'invalid_amount'],
          ['/lines/5/credit_minor', 'invalid_amount'],
        ],
      });
      expect(res.body.title).toBe('An amount is invalid');
      expect(res.body.detail).toBe(`3 violations; first: /lines/1/credit_minor ${AMOUNT_DETAIL}`);
    });

    it('points at /lines/3/debit_minor in a four-line journal', async () => {
      const body = aJournal(accounts(), { lines: 4 });
      body.lines[3] = { account_id: account(3), debit_minor: 0.25 };
      await check(body, bad('/lines/3/debit_minor', 'invalid_amount'));
    });

    it('points a line-rule violation at the line itself (/lines/3)', async () => {
      const body = aJournal(accounts(), { lines: 4 });
      body.lines[3] = { account_id: account(3), debit_minor: 10000, credit_minor: 10000 };
      await check(body, bad('/lines/3'));
    });

    it('lists every faulty field of a line, one entry per field, and nothing for its valid ones', async () => {
      const body = journal();
      body.lines[0] = { account_id: 'x', debit_minor: 1, credit_minor: 1, tax_code_id: 'y', dimension_refs: 'z', line_text: '', colour: 0 };
      await check(body, {
        status: 400,
        code: 'invalid_input',
        errors: [
          ['/lines/0/colour', 'invalid_input'],
          ['/lines/0/account_id', 'invalid_input'],
          ['/lines/0/tax_code_id', 'invalid_input'],
          ['/lines/0/dimension_refs', 'invalid_input'],
          ['/lines/0/line_text', 'invalid_input'],
          ['/lines/0', 'invalid_input'],
        ],
      });
    });

    it('lists the first 100 of 500 bad lines and states the total (CONTRACT §4)', async () => {
      const body = aJournal(accounts(), { lines: 500 });
      for (const l of body.lines) l.note = 'x';
      const res = await prepare(body);
      expectProblem(res, 400, 'invalid_input');
      expect(errorsOf(res)).toEqual(body.lines.slice(0, 100).map((_, i) => [`/lines/${i}/note`, 'invalid_input']));
      expect(res.body.detail).toBe('500 violations; first: /lines/0/note is not a known field');
    });
  });

  describe('balance (CONTRACT §3 step 7, §5: exact sums)', () => {
    /** `n` lines of MAX, half debits and half credits: each side sums to (n/2)·MAX > 2^53 */
    const maxJournal = (n: number) => aJournal(accounts(), { lines: n, amount: MAX });

    it('accepts 500 lines of the maximum amount, balanced (each side 24,999,999,999,999,750 > 2^53)', async () => {
      expect(250 * MAX).toBeGreaterThan(2 ** 53);
      await check(maxJournal(500), ok);
    });

    it('refuses the same journal one øre off with 422 journal_unbalanced and no errors[]', async () => {
      const body = maxJournal(500);
      body.lines[498].debit_minor = MAX - 1; // debits 24999999999999749
      body.lines[499].credit_minor = MAX - 2; // credits 24999999999999748
      // as doubles the two exact sums are the same number: only exact arithmetic sees the øre
      expect(Number(BigInt(MAX) * 250n - 1n)).toBe(Number(BigInt(MAX) * 250n - 2n));
      const res = await prepare(body);
      expectProblem(res, 422, 'journal_unbalanced');
      expect(res.body.title).toBe('The journal does not balance');
      expect(res.body.errors).toBeUndefined();
      expect(res.body.detail).toBe('The sum of debits (24999999999999749 øre) differs from the sum of credits (24999999999999748 øre)');
    });

    it('refuses one øre more on the debit side of a small journal', async () => {
      const body = journal();
      body.lines[0].debit_minor = 10001;
      const res = await prepare(body);
      expectProblem(res, 422, 'journal_unbalanced');
    });

    it('balances across many lines of different sizes', async () => {
      const body = journal();
      body.lines = [
        { account_id: account(0), debit_minor: MAX },
        { account_id: account(1), debit_minor: 1 },
        { account_id: account(2), credit_minor: MAX - 1 },
        { account_id: account(3), credit_minor: 2 },
      ];
      await check(body, ok);
    });

    it('checks balance before references: unbalanced with a foreign account is journal_unbalanced', async () => {
      const body = journal();
      body.lines[0].debit_minor = 9999;
      body.lines[1].account_id = other.accounts[0].id;
      const res = await prepare(body);
      expectProblem(res, 422, 'journal_unbalanced');
    });

    it('checks input before balance: unbalanced with a bad date is invalid_input', async () => {
      const body = journal();
      body.lines[0].debit_minor = 9999;
      body.posting_date = '2026-02-30';
      await check(body, bad('/posting_date'));
    });

    it('checks input before balance: unbalanced with a bad amount is invalid_amount', async () => {
      const body = journal();
      body.lines[0].debit_minor = 9999;
      body.lines[1].credit_minor = 1.5;
      await check(body, bad('/lines/1/credit_minor', 'invalid_amount'));
    });

    it('checks input before references: a foreign account and a bad field is invalid_input', async () => {
      const body = journal();
      body.lines[1].account_id = other.accounts[0].id;
      body.description = '';
      await check(body, bad('/description'));
    });
  });

  describe('references (seed 2.2 rule 6; CONTRACT §4 reference_not_allowed)', () => {
    let refProject: SandboxProject;
    let inactiveId: string;

    beforeAll(async () => {
      refProject = await aSandboxProject(app, 'References');
      inactiveId = refProject.accounts[7].id;
      // no console deactivate endpoint yet: the same effect in SQL
      await app.apps.dataSource.query('UPDATE accounts SET active = false WHERE organization_id = $1 AND id = $2', [refProject.organization_id, inactiveId]);
    });

    function refJournal(offending: string): Body {
      return {
        posting_date: '2026-11-20',
        lines: [
          { account_id: refProject.accounts[0].id, debit_minor: 500 },
          { account_id: offending, credit_minor: 500 },
        ],
      };
    }
    const prepareRef = (body: unknown) => prepare(body, refProject.token);
    /** the body without what may differ between causes: request_id (pointers are equal by construction) */
    const comparable = (res: Response) => {
      const { request_id: _requestId, ...rest } = res.body;
      return rest;
    };

    it('gives the identical body for a missing, a foreign, an inactive account, in either case', async () => {
      const causes: Array<[string, string]> = [
        ['missing', '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5'],
        ['missing, nil uuid', '00000000-0000-0000-0000-000000000000'],
        ['foreign', other.accounts[0].id],
        ['foreign, upper case', other.accounts[1].id.toUpperCase()],
        ['inactive', inactiveId],
        ['inactive, upper case', inactiveId.toUpperCase()],
        ['the id of a tax code of the organization', refProject.tax_codes[0].id],
      ];
      const bodies: Array<[string, unknown]> = [];
      for (const [cause, id] of causes) {
        const res = await prepareRef(refJournal(id));
        expectProblem(res, 422, 'reference_not_allowed');
        expect(res.body.errors).toEqual([{ pointer: '/lines/1/account_id', code: 'reference_not_allowed', detail: expect.any(String) }]);
        bodies.push([cause, comparable(res)]);
      }
      const [, first] = bodies[0];
      for (const [cause, body] of bodies) expect([cause, body]).toEqual([cause, first]);
      expect(Object.keys(first as object).sort()).toEqual(['code', 'detail', 'errors', 'status', 'title', 'type']);
    });

    it('names no cause, owner, organization or account name of a foreign account', async () => {
      const foreign = other.accounts[2];
      const res = await prepareRef(refJournal(foreign.id));
      expectProblem(res, 422, 'reference_not_allowed');
      for (const secret of [foreign.name, other.organization_id, other.project_id, other.app_id, 'Someone else']) {
        expect(res.text).not.toContain(secret);
      }
      expect(res.text.toLowerCase()).not.toMatch(/foreign|inactive|organi[sz]ation|exist|owner|another/);
    });

    it('accepts an upper-case id of an active own account as that account', async () => {
      const body = refJournal(refProject.accounts[1].id.toUpperCase());
      body.lines[0].account_id = refProject.accounts[0].id.toUpperCase();
      const res = await prepareRef(body);
      expectSuccess(res);
    });

    it('lists one entry per offending line, in line order, with each cause on its own line', async () => {
      const own = refProject.accounts.map((a) => a.id);
      const body = {
        posting_date: '2026-11-20',
        lines: [
          { account_id: own[0], debit_minor: 100 },
          { account_id: other.accounts[0].id, debit_minor: 100 },
          { account_id: own[1], credit_minor: 100 },
          { account_id: inactiveId, credit_minor: 50 },
          { account_id: '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5', credit_minor: 50, tax_code_id: other.tax_codes[0].id },
          { account_id: own[2], debit_minor: 1, tax_code_id: '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5' },
          { account_id: own[3], credit_minor: 1, tax_code_id: refProject.tax_codes[0].id },
          { account_id: other.accounts[0].id.toUpperCase(), debit_minor: 7 },
          { account_id: own[4], credit_minor: 7 },
        ],
      };
      const res = await prepareRef(body);
      expectProblem(res, 422, 'reference_not_allowed');
      expect(errorsOf(res)).toEqual([
        ['/lines/1/account_id', 'reference_not_allowed'],
        ['/lines/3/account_id', 'reference_not_allowed'],
        ['/lines/4/account_id', 'reference_not_allowed'],
        ['/lines/4/tax_code_id', 'reference_not_allowed'],
        ['/lines/5/tax_code_id', 'reference_not_allowed'],
        ['/lines/7/account_id', 'reference_not_allowed'],
      ]);
      // every account entry has the same detail, and so does every tax code entry
      const details = res.body.errors.map((e: { pointer: string; detail: string }) => [e.pointer.split('/').pop(), e.detail]);
      expect(new Set(details.filter(([f]: string[]) => f === 'account_id').map(([, d]: string[]) => d)).size).toBe(1);
      expect(new Set(details.filter(([f]: string[]) => f === 'tax_code_id').map(([, d]: string[]) => d)).size).toBe(1);
    });

    it('refuses a foreign account on every one of 500 lines with the first 100 entries', async () => {
      const body = aJournal([other.accounts[0].id], { lines: 500 });
      const res = await prepareRef(body);
      expectProblem(res, 422, 'reference_not_allowed');
      expect(errorsOf(res)).toEqual(body.lines.slice(0, 100).map((_, i) => [`/lines/${i}/account_id`, 'reference_not_allowed']));
      expect(res.body.detail).toContain('500 violations');
    });

    it('lets the other project use its own accounts (the check is per organization, not global)', async () => {
      const res = await prepare(aJournal(other.accounts.map((a) => a.id)), other.token);
      expectSuccess(res);
    });
  });

  describe('result and side effects (seed 2.3, 4.1; CONTRACT §7)', () => {
    it('answers exactly the four members of the prepare result', async () => {
      const res = await prepare(journal());
      expectSuccess(res);
      expect(res.text).toBe(
        '{"valid":true,"posted":false,"checked":["input","grant","references"],"not_checked":["commit_time_period_locks","accounting_transaction"]}',
      );
    });

    it('answers the same with every optional field spelled out', async () => {
      const body = journal();
      Object.assign(body, { transaction_date: '2026-11-19', document_date: '2026-11-18', description: 'Faktura 1001', currency: 'DKK' });
      Object.assign(body.lines[0], { credit_minor: 0, tax_code_id: project.tax_codes[0].id, dimension_refs: [{ dept: 'A' }], line_text: 'Varekøb' });
      Object.assign(body.lines[1], { debit_minor: 0, tax_code_id: null, dimension_refs: [], line_text: null });
      await check(body, ok);
    });

    it.each([
      ['a key', 'prepare-key-1'],
      ['an empty key (that would be invalid_idempotency_key where keys count)', ''],
      ['a key of 300 characters', 'k'.repeat(300)],
      ['a key with a space', 'a key'],
    ])('ignores an Idempotency-Key header: %s', async (_name, key) => {
      const res = await app
        .partner()
        .post(`${SANDBOX}/journal/prepare`)
        .set('Authorization', `Bearer ${project.token}`)
        .set('Idempotency-Key', key)
        .send(journal());
      expectSuccess(res);
    });

    it('ignores an Idempotency-Key reused with another payload, and repeats freely', async () => {
      const send = (body: Body) =>
        app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${project.token}`).set('Idempotency-Key', 'same-key').send(body);
      const a = journal();
      const b = journal();
      b.description = 'changed';
      for (const body of [a, b, a, b]) expectSuccess(await send(body));
    });

    it('writes no row to any table for a batch of valid and invalid prepares', async () => {
      // the webhook dispatcher legitimately works on other tests' outbox rows: stop it first
      await app.apps.partner.get(WebhookDispatcher).onApplicationShutdown();
      const counts = async (): Promise<Record<string, number>> => {
        const tables: Array<{ tablename: string }> = await app.apps.dataSource.query(
          // request_log is the developer console's record of every call (CONTRACT §15), written for each prepare by design
          `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'request_log' ORDER BY tablename`,
        );
        const out: Record<string, number> = {};
        for (const { tablename } of tables) {
          const [row] = await app.apps.dataSource.query(`SELECT count(*)::int AS n FROM "${tablename.replace(/"/g, '""')}"`);
          out[tablename] = Number(row.n);
        }
        return out;
      };
      const before = await counts();
      // the schema's core tables are there, so the count really covers them
      expect(Object.keys(before)).toEqual(
        expect.arrayContaining([
          'journal_entries',
          'journal_lines',
          'operation_receipts',
          'idempotency_records',
          'webhook_outbox',
          'voucher_counters',
          'periods',
        ]),
      );

      const unbalanced = journal();
      unbalanced.lines[0].debit_minor = 1;
      const foreign = journal();
      foreign.lines[1].account_id = other.accounts[0].id;
      const badAmount = journal();
      badAmount.lines[0].debit_minor = -1;
      const statuses: number[] = [];
      for (const [body, key] of [
        [journal(), 'batch-1'],
        [aJournal(accounts(), { lines: 500, amount: MAX }), 'batch-2'],
        [journal(), undefined],
        [unbalanced, 'batch-3'],
        [foreign, 'batch-4'],
        [badAmount, 'batch-5'],
        [{ ...journal(), colour: 1 }, 'batch-6'],
        [journal(), 'batch-1'],
      ] as Array<[Body, string | undefined]>) {
        let req = app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${project.token}`);
        if (key !== undefined) req = req.set('Idempotency-Key', key);
        statuses.push((await req.send(body)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 422, 422, 400, 400, 200]);
      expect(await counts()).toEqual(before);
    });
  });

  describe('order of checks against access (CONTRACT §3)', () => {
    const invalidBody = () => ({ posting_date: 'never', lines: 'none', colour: 1 });

    it('answers a missing token with 401 before looking at the input', async () => {
      const res = await prepare(invalidBody(), null);
      expectProblem(res, 401, 'missing_token');
      expect(res.body.errors).toBeUndefined();
      expect(res.headers['www-authenticate']).toBe('Bearer realm="partner-api"');
    });

    it('answers an unknown well-formed token with 401 invalid_token before looking at the input', async () => {
      const res = await prepare(invalidBody(), generateAccessToken('sandbox'));
      expectProblem(res, 401, 'invalid_token');
    });

    it('answers a production token on the sandbox path with 401 token_environment_mismatch before the input', async () => {
      const res = await prepare(invalidBody(), generateAccessToken('production'));
      expectProblem(res, 401, 'token_environment_mismatch');
    });

    it('answers the sandbox token on the production path with 401 before the input', async () => {
      const res = await prepare(invalidBody(), project.token, PRODUCTION);
      expectProblem(res, 401, 'token_environment_mismatch');
    });

    it('answers a superseded generation\u2019s token with 401 invalid_token even for a valid journal', async () => {
      const p = await aSandboxProject(app, 'Superseded');
      const gen = await app
        .console()
        .post(`/console/v1/sandbox/projects/${p.project_id}/generations`)
        .set('Authorization', 'Bearer test-console-key-0123456789abcdef')
        .send({});
      expect(gen.status).toBe(201);
      const res = await prepare(aJournal(p.accounts.map((a) => a.id)), p.token);
      expectProblem(res, 401, 'invalid_token');
      expectSuccess(await prepare(aJournal(p.accounts.map((a) => a.id)), gen.body.token));
    });
  });
});

import fc from 'fast-check';
import type { Response } from 'supertest';
import { aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Property-based tests of POST /journal/prepare over HTTP. The generators build valid journals from
 * the contract's rules; each mutation decides on its own, from the contract, which status, code and
 * pointer it must produce. Nothing is asked of the code under test to compute an expectation.
 */

const MAX = 99_999_999_999_999;
const SUCCESS = {
  valid: true,
  posted: false,
  checked: ['input', 'grant', 'references'],
  not_checked: ['commit_time_period_locks', 'accounting_transaction'],
};
const KNOWN_TOP = new Set(['posting_date', 'transaction_date', 'document_date', 'description', 'currency', 'lines']);
const KNOWN_LINE = new Set(['account_id', 'debit_minor', 'credit_minor', 'tax_code_id', 'dimension_refs', 'line_text']);
const CODE_STATUS: Record<string, number> = { invalid_input: 400, invalid_amount: 400, journal_unbalanced: 422, reference_not_allowed: 422 };
/** The test's own reading of CONTRACT §5 "uuid" and "date" shapes; anything else is certainly invalid. */
const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

const RUNS = Number(process.env.PREPARE_PROPERTY_RUNS ?? 60);
/** jest ignores `testTimeout` inside a `projects` entry, so each test names its own. */
const TIMEOUT = 180_000 * Math.max(1, RUNS / 60);

type Json = unknown;
type Line = Record<string, Json>;
type Journal = { lines: Line[] } & Record<string, Json>;
/** What a mutation says the service must answer. `errors` are [pointer, code], in any order. */
type Expected = { status: number; code: string; errors?: Array<[string, string]> };
type Mutated = { kind: string; body: Json; expected: Expected };

/** RFC 6901 reference token escaping, written from the RFC: `~` → `~0`, then `/` → `~1`. */
const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A sentinel for "leave the member out" (as opposed to sending null). */
const ABSENT = Symbol('absent');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(fc.constant(ABSENT), fc.constant(null), arb);
function withoutAbsent<T extends Record<string, unknown>>(o: T): Record<string, Json> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ABSENT));
}

/** A code point that is not a surrogate: ASCII, Danish letters, BMP, astral (emoji and beyond). */
const codePoint = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constantFrom(0xe6, 0xf8, 0xe5, 0xc6, 0xd8, 0xc5),
  fc.integer({ min: 1, max: 0xd7ff }), // no NUL: PostgreSQL text cannot hold it
  fc.integer({ min: 0xe000, max: 0xffff }),
  fc.integer({ min: 0x1f300, max: 0x1faff }),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
);
/** A string of exactly `n` code points: either varied, or one code point repeated (to reach the bounds cheaply). */
const textOf = (n: number) =>
  fc.oneof(
    fc
      .array(codePoint, { minLength: Math.min(n, 40), maxLength: Math.min(n, 40) })
      .chain((head) => codePoint.map((fill) => String.fromCodePoint(...head) + String.fromCodePoint(fill).repeat(n - head.length))),
    codePoint.map((cp) => String.fromCodePoint(cp).repeat(n)),
  );
const textBetween = (min: number, max: number) =>
  fc.oneof(fc.constant(min), fc.constant(max), fc.integer({ min, max: Math.min(max, min + 30) }), fc.integer({ min, max })).chain(textOf);

/** A calendar date 0001-01-01…9999-12-31, from the platform's UTC calendar (an independent oracle). */
const calendarDate = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** Values that are certainly not a calendar date and not null. */
const notADate = fc.oneof(
  fc.constantFrom('2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-01-32', '2024-02-29T00:00:00Z', '2024-2-29'),
  fc.string({ maxLength: 30 }).filter((s) => !DATE_SHAPE.test(s)),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);
const amount = fc.oneof(fc.constant(MAX), fc.constant(1), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: MAX }));
/** Values that are certainly not an integer 0…MAX (and not null, which means 0). */
const notAnAmount = fc.oneof(
  fc.integer({ min: MAX + 1, max: Number.MAX_SAFE_INTEGER }),
  fc.constant(MAX + 1),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
  fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1.5, 0.1, -0.5, 1e15),
  fc.string({ maxLength: 16 }),
  fc.integer({ min: 0, max: MAX }).map(String),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);
/** Values that are neither null nor a string */
const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.string(), { minLength: 1, maxLength: 2 }));
const notAnArray = fc.oneof(fc.integer(), fc.boolean(), fc.string(), fc.constant({}), fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }));
/** Field names that are not part of the input, including the prototype-polluting ones. */
const unknownKey = (known: Set<string>) =>
  fc
    .oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'organization_id', 'actor', '', '~', '/', 'a~/b'),
      fc.string({ maxLength: 12 }),
    )
    .filter((k) => !known.has(k));
const randomCase = (id: string) =>
  fc
    .constantFrom<'lower' | 'upper' | 'mixed'>('lower', 'upper', 'mixed')
    .map((c) => (c === 'lower' ? id : c === 'upper' ? id.toUpperCase() : id.replace(/[a-f]/g, (x, i: number) => (i % 2 ? x.toUpperCase() : x))));

/** Any JSON value; object keys lean on the ones JavaScript treats specially (`__proto__`, `constructor`). */
const jsonKey = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'length') },
);
const jsonValue = (maxDepth: number) =>
  fc.anything({
    key: jsonKey,
    maxDepth,
    maxKeys: 4,
    values: [fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 8 }), fc.constant(null)],
  });

/** Sets an own member even for a key like `__proto__`, so that JSON.stringify writes it. */
function defineOwn(target: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

describe('POST /journal/prepare — properties', () => {
  let app: TestApp;
  let project: SandboxProject;
  let other: SandboxProject;
  let usable: string[];
  let inactive: string;

  beforeAll(async () => {
    app = await createTestApp();
    project = await aSandboxProject(app, 'Properties');
    other = await aSandboxProject(app, 'Properties, other organization');
    inactive = project.accounts[project.accounts.length - 1].id;
    usable = project.accounts.slice(0, -1).map((a) => a.id);
    await app.apps.dataSource.query('UPDATE accounts SET active = false WHERE organization_id = $1 AND id = $2', [project.organization_id, inactive]);
  }, 180_000);
  afterAll(() => app.close());

  function send(body: Json): Promise<Response> {
    return app
      .partner()
      .post(`${SANDBOX}/journal/prepare`)
      .set('Authorization', `Bearer ${project.token}`)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** One line with `side` of `value` and the other side absent, 0 or null; optional members in every form. */
  const lineArb = (side: 'debit_minor' | 'credit_minor', value: number) => {
    const otherSide = side === 'debit_minor' ? 'credit_minor' : 'debit_minor';
    return fc
      .record({
        account_id: fc.constantFrom(...usable).chain(randomCase),
        other: fc.constantFrom<Json>(ABSENT, 0, null),
        tax_code_id: maybe(fc.constantFrom(...project.tax_codes.map((t) => t.id)).chain(randomCase)),
        dimension_refs: maybe(fc.array(jsonValue(2), { maxLength: 20 })),
        line_text: maybe(textBetween(1, 500)),
      })
      .map(({ other: o, ...rest }) => withoutAbsent({ ...rest, [side]: value, [otherSide]: o }));
  };

  /**
   * A valid, balanced journal over the project's active accounts: debit amounts, each credited back
   * whole or in two pieces, shuffled; sometimes hundreds of lines (at most 3 × 166 = 498).
   */
  const validJournal: fc.Arbitrary<Journal> = fc
    .oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.integer({ min: 100, max: 166 }) })
    .chain((n) => fc.array(fc.tuple(amount, fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: n, maxLength: n }))
    .chain((debits) => {
      const lines: Array<fc.Arbitrary<Json>> = [];
      for (const [a, split, at] of debits) {
        lines.push(lineArb('debit_minor', a));
        if (split && a >= 2) {
          const x = Math.min(a - 1, Math.max(1, Math.floor(a * at)));
          lines.push(lineArb('credit_minor', x), lineArb('credit_minor', a - x));
        } else {
          lines.push(lineArb('credit_minor', a));
        }
      }
      return fc.tuple(...lines).chain((ls) => fc.shuffledSubarray(ls, { minLength: ls.length, maxLength: ls.length }));
    })
    .chain((lines) =>
      fc
        .record({
          posting_date: calendarDate,
          transaction_date: maybe(calendarDate),
          document_date: maybe(calendarDate),
          description: maybe(textBetween(1, 1000)),
          currency: maybe(fc.constant('DKK')),
        })
        .map((top) => ({ ...withoutAbsent(top), lines: lines as Line[] }) as Journal),
    );

  const clone = (j: Journal): Journal => JSON.parse(JSON.stringify(j));
  const invalidInput = (pointer: string): Expected => ({ status: 400, code: 'invalid_input', errors: [[pointer, 'invalid_input']] });
  const invalidAmount = (pointer: string): Expected => ({ status: 400, code: 'invalid_amount', errors: [[pointer, 'invalid_amount']] });
  const notAllowed = (pointer: string): Expected => ({ status: 422, code: 'reference_not_allowed', errors: [[pointer, 'reference_not_allowed']] });
  const lineIndex = (j: Journal) => fc.nat({ max: j.lines.length - 1 });
  /** which side of line i carries its amount */
  const sideOf = (l: Line): 'debit_minor' | 'credit_minor' => (typeof l.debit_minor === 'number' && l.debit_minor > 0 ? 'debit_minor' : 'credit_minor');
  const otherSideOf = (l: Line) => (sideOf(l) === 'debit_minor' ? 'credit_minor' : 'debit_minor');

  /** Every kind of single mutation, each with the answer the contract demands. */
  const mutations: Array<(j: Journal) => fc.Arbitrary<Mutated>> = [
    (j) =>
      fc.constantFrom('delete', 'null').map((how) => {
        const b = clone(j);
        if (how === 'delete') delete b.posting_date;
        else b.posting_date = null;
        return { kind: `posting_date ${how}`, body: b, expected: invalidInput('/posting_date') };
      }),
    (j) =>
      fc.tuple(fc.constantFrom('posting_date', 'transaction_date', 'document_date'), notADate).map(([f, v]) => {
        const b = clone(j);
        b[f] = v;
        return { kind: `${f} not a date`, body: b, expected: invalidInput(`/${f}`) };
      }),
    (j) =>
      fc.oneof(fc.constant(''), fc.integer({ min: 1001, max: 1100 }).chain(textOf), notAString).map((v) => {
        const b = clone(j);
        b.description = v;
        return { kind: 'description out of bounds', body: b, expected: invalidInput('/description') };
      }),
    (j) =>
      fc
        .oneof(
          fc.string().filter((s) => s !== 'DKK'),
          notAString,
        )
        .map((v) => {
          const b = clone(j);
          b.currency = v;
          return { kind: 'currency not DKK', body: b, expected: invalidInput('/currency') };
        }),
    (j) =>
      fc.tuple(unknownKey(KNOWN_TOP), jsonValue(2)).map(([k, v]) => {
        const b = clone(j);
        defineOwn(b, k, v);
        return { kind: 'unknown top-level field', body: b, expected: invalidInput(`/${escapeToken(k)}`) };
      }),
    (j) =>
      fc.tuple(lineIndex(j), unknownKey(KNOWN_LINE), jsonValue(2)).map(([i, k, v]) => {
        const b = clone(j);
        defineOwn(b.lines[i], k, v);
        return { kind: 'unknown line field', body: b, expected: invalidInput(`/lines/${i}/${escapeToken(k)}`) };
      }),
    (j) =>
      fc.tuple(lineIndex(j), fc.boolean(), notAnAmount).map(([i, amountSide, v]) => {
        const b = clone(j);
        const f = amountSide ? sideOf(b.lines[i]) : otherSideOf(b.lines[i]);
        b.lines[i][f] = v;
        // CONTRACT §5: the line rule is not judged on a line with an invalid amount
        return { kind: 'amount invalid', body: b, expected: invalidAmount(`/lines/${i}/${f}`) };
      }),
    (j) =>
      fc.tuple(lineIndex(j), amount).map(([i, v]) => {
        const b = clone(j);
        b.lines[i][otherSideOf(b.lines[i])] = v;
        return { kind: 'both sides > 0', body: b, expected: invalidInput(`/lines/${i}`) };
      }),
    (j) =>
      fc.tuple(lineIndex(j), fc.constantFrom<Json>(ABSENT, 0, null)).map(([i, v]) => {
        const b = clone(j);
        const f = sideOf(b.lines[i]);
        if (v === ABSENT) delete b.lines[i][f];
        else b.lines[i][f] = v;
        return { kind: 'neither side > 0', body: b, expected: invalidInput(`/lines/${i}`) };
      }),
    (j) =>
      fc
        .tuple(
          lineIndex(j),
          fc.oneof(
            fc.string().filter((s) => !UUID_SHAPE.test(s)),
            notAString,
            fc.constant(null),
            fc.constant(ABSENT),
          ),
        )
        .map(([i, v]) => {
          const b = clone(j);
          if (v === ABSENT) delete b.lines[i].account_id;
          else b.lines[i].account_id = v;
          return { kind: 'account_id not a uuid', body: b, expected: invalidInput(`/lines/${i}/account_id`) };
        }),
    (j) =>
      fc
        .tuple(
          lineIndex(j),
          fc.oneof(
            fc.string().filter((s) => !UUID_SHAPE.test(s)),
            notAString,
          ),
        )
        .map(([i, v]) => {
          const b = clone(j);
          b.lines[i].tax_code_id = v;
          return { kind: 'tax_code_id not a uuid', body: b, expected: invalidInput(`/lines/${i}/tax_code_id`) };
        }),
    (j) =>
      fc.tuple(lineIndex(j), fc.oneof(fc.array(jsonValue(1), { minLength: 21, maxLength: 30 }), notAnArray)).map(([i, v]) => {
        const b = clone(j);
        b.lines[i].dimension_refs = v;
        return { kind: 'dimension_refs invalid', body: b, expected: invalidInput(`/lines/${i}/dimension_refs`) };
      }),
    (j) =>
      fc.tuple(lineIndex(j), fc.oneof(fc.constant(''), fc.integer({ min: 501, max: 560 }).chain(textOf), notAString)).map(([i, v]) => {
        const b = clone(j);
        b.lines[i].line_text = v;
        return { kind: 'line_text out of bounds', body: b, expected: invalidInput(`/lines/${i}/line_text`) };
      }),
    (j) =>
      lineIndex(j).map((i) => {
        const b = clone(j);
        b.lines = [b.lines[i]];
        return { kind: 'one line', body: b, expected: invalidInput('/lines') };
      }),
    (j) =>
      fc.integer({ min: 501, max: 510 }).map((n) => {
        const b = clone(j);
        while (b.lines.length < n) b.lines.push({ account_id: usable[b.lines.length % usable.length], credit_minor: 1 });
        b.lines = b.lines.slice(0, n);
        return { kind: 'more than 500 lines', body: b, expected: invalidInput('/lines') };
      }),
    (j) =>
      fc.oneof(notAnArray, fc.constant(null), fc.constant(ABSENT)).map((v) => {
        const b = clone(j);
        if (v === ABSENT) delete (b as Record<string, Json>).lines;
        else (b as Record<string, Json>).lines = v;
        return { kind: 'lines not an array', body: b, expected: invalidInput('/lines') };
      }),
    (j) =>
      fc.tuple(lineIndex(j), fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }))).map(([i, v]) => {
        const b = clone(j);
        (b.lines as Json[])[i] = v;
        return { kind: 'a line not an object', body: b, expected: invalidInput(`/lines/${i}`) };
      }),
    (j) =>
      lineIndex(j).map((i) => {
        const b = clone(j);
        const f = sideOf(b.lines[i]);
        const a = b.lines[i][f] as number;
        b.lines[i][f] = a < MAX ? a + 1 : a - 1;
        return { kind: 'one øre off', body: b, expected: { status: 422, code: 'journal_unbalanced' } };
      }),
    (j) =>
      fc
        .tuple(
          lineIndex(j),
          fc.oneof(
            fc.uuid(),
            fc.constantFrom(...other.accounts.map((a) => a.id)).chain(randomCase),
            randomCase(inactive),
            fc.constantFrom(...project.tax_codes.map((t) => t.id)),
          ),
        )
        .map(([i, id]) => {
          const b = clone(j);
          b.lines[i].account_id = id;
          return { kind: 'account not allowed', body: b, expected: notAllowed(`/lines/${i}/account_id`) };
        }),
    (j) =>
      fc.tuple(lineIndex(j), fc.oneof(fc.uuid(), fc.constantFrom(...other.tax_codes.map((t) => t.id)), fc.constantFrom(...usable))).map(([i, id]) => {
        const b = clone(j);
        b.lines[i].tax_code_id = id;
        return { kind: 'tax code not allowed', body: b, expected: notAllowed(`/lines/${i}/tax_code_id`) };
      }),
    // two violations: one amount, one not → invalid_input listing both with their own codes
    (j) =>
      fc.tuple(lineIndex(j), notAnAmount, notADate).map(([i, v, d]) => {
        const b = clone(j);
        const f = sideOf(b.lines[i]);
        b.lines[i][f] = v;
        b.posting_date = d;
        return {
          kind: 'amount and date',
          body: b,
          expected: {
            status: 400,
            code: 'invalid_input',
            errors: [
              ['/posting_date', 'invalid_input'],
              [`/lines/${i}/${f}`, 'invalid_amount'],
            ],
          },
        };
      }),
    // two amount violations only → invalid_amount
    (j) =>
      fc.tuple(lineIndex(j), notAnAmount, notAnAmount).map(([i, v, w]) => {
        const b = clone(j);
        b.lines[i].debit_minor = v;
        b.lines[i].credit_minor = w;
        return {
          kind: 'two amounts',
          body: b,
          expected: {
            status: 400,
            code: 'invalid_amount',
            errors: [
              [`/lines/${i}/debit_minor`, 'invalid_amount'],
              [`/lines/${i}/credit_minor`, 'invalid_amount'],
            ],
          },
        };
      }),
  ];

  function expectAnswer(res: Response, expected: Expected, kind: string): void {
    const got: Record<string, unknown> = { kind, status: res.status, code: res.body.code };
    const want: Record<string, unknown> = { kind, status: expected.status, code: expected.code };
    if (expected.errors) {
      const sortPairs = (p: Array<[string, string]>) => [...p].sort((a, b) => (a.join('\n') < b.join('\n') ? -1 : 1));
      got.errors = sortPairs((res.body.errors ?? []).map((e: { pointer: string; code: string }) => [e.pointer, e.code]));
      want.errors = sortPairs(expected.errors);
    } else {
      got.errors = res.body.errors;
      want.errors = undefined;
    }
    expect(got).toEqual(want);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  }

  it(
    'answers 200 with exactly the prepare result for any valid balanced journal over the project\u2019s accounts',
    async () => {
      await fc.assert(
        fc.asyncProperty(validJournal, async (j) => {
          const res = await send(j);
          expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: SUCCESS });
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'answers any single mutation of a valid journal with the code and pointer the mutation calls for',
    async () => {
      const mutated = validJournal.chain((j) => fc.oneof(...mutations.map((m) => m(j))));
      await fc.assert(
        fc.asyncProperty(mutated, async ({ kind, body, expected }) => {
          expectAnswer(await send(body), expected, kind);
        }),
        { numRuns: RUNS * 4 },
      );
    },
    TIMEOUT,
  );

  /** Every path below the root of a journal (members of the top, of the lines, items of lines and dimension_refs). */
  function pathsOf(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
    const out: Array<Array<string | number>> = at.length > 0 ? [at] : [];
    if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...at, i])));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...at, k]));
    return out;
  }
  function replaceAt(root: Json, path: Array<string | number>, value: Json): Json {
    const copy = JSON.parse(JSON.stringify(root));
    let node = copy;
    for (const step of path.slice(0, -1)) node = node[step];
    const last = path[path.length - 1];
    if (value === ABSENT) {
      if (Array.isArray(node)) node.splice(Number(last), 1);
      else delete node[last];
    } else defineOwn(node, String(last), value);
    return copy;
  }

  function expectNo5xx(res: Response): void {
    expect(res.status).toBeLessThan(500);
    if (res.status === 200) {
      expect(res.body).toEqual(SUCCESS);
    } else {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(CODE_STATUS[res.body.code]).toBe(res.status);
    }
  }

  it(
    'never answers 5xx for a valid journal with any subtree replaced or removed',
    async () => {
      const body = validJournal.chain((j) =>
        fc.tuple(fc.constantFrom(...pathsOf(j)), fc.oneof(jsonValue(3), fc.constant(ABSENT))).map(([p, v]) => replaceAt(j, p, v)),
      );
      await fc.assert(
        fc.asyncProperty(body, async (b) => expectNo5xx(await send(b))),
        { numRuns: RUNS * 2 },
      );
    },
    TIMEOUT,
  );

  it(
    'never answers 5xx for arbitrary JSON objects, written as raw text (keys such as __proto__ included)',
    async () => {
      const key = fc.oneof(fc.constantFrom(...KNOWN_TOP, '__proto__', 'constructor', 'prototype'), fc.string({ maxLength: 10 }));
      const value = fc.oneof(jsonValue(3), fc.array(jsonValue(2), { maxLength: 4 }));
      const raw = fc
        .array(fc.tuple(key, value), { maxLength: 8 })
        .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
      await fc.assert(
        fc.asyncProperty(raw, async (b) => expectNo5xx(await send(b))),
        { numRuns: RUNS * 2 },
      );
    },
    TIMEOUT,
  );

  it(
    'never answers 5xx for arbitrary JSON text or arbitrary text',
    async () => {
      const raw = fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 50 }), fc.string({ unit: 'binary', maxLength: 50 }));
      await fc.assert(
        fc.asyncProperty(raw, async (b) => {
          const res = await send(b);
          expectNo5xx(res);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { aSandboxProject, SANDBOX, type SandboxProject } from '../support/fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

const MAX = 99999999999999;
const SUCCESS = { valid: true, posted: false, checked: ['input', 'grant', 'references'], not_checked: ['commit_time_period_locks', 'accounting_transaction'] };

type Line = Record<string, unknown> & { account_id: string; debit_minor?: unknown; credit_minor?: unknown };
type Journal = Record<string, unknown> & { posting_date: string; lines: Line[] };

/** Property-based checks over HTTP (issue 4): validity, single mutations, and no 5xx for any JSON. */
describe('POST /journal/prepare properties', () => {
  let app: TestApp;
  let p: SandboxProject;

  beforeAll(async () => {
    app = await createTestApp();
    p = await aSandboxProject(app);
  });
  afterAll(() => app.close());

  const prepare = (body: string) =>
    app.partner().post(`${SANDBOX}/journal/prepare`).set('Authorization', `Bearer ${p.token}`).set('Content-Type', 'application/json').send(body);

  const date = fc
    .record({ y: fc.integer({ min: 1, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
    .map(({ y, m, d }) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, fc.constant(null)), { nil: undefined });
  const text = (max: number) => fc.string({ minLength: 1, maxLength: max, unit: 'grapheme' }).filter((s) => [...s].length <= max);

  /** A valid, balanced journal over the project's active accounts: pairs of equal debit and credit. */
  const validJournal: fc.Arbitrary<Journal> = fc
    .record({
      posting_date: date,
      transaction_date: optional(date),
      document_date: optional(date),
      description: optional(text(40)),
      currency: fc.option(fc.constantFrom('DKK', null), { nil: undefined }),
      pairs: fc.array(
        fc.record({
          amount: fc.integer({ min: 1, max: MAX }),
          debitAccount: fc.integer({ min: 0, max: 9 }),
          creditAccount: fc.integer({ min: 0, max: 9 }),
          text: optional(text(20)),
          tax: fc.boolean(),
          dims: optional(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    })
    .map((r) => {
      const j: Journal = { posting_date: r.posting_date, lines: [] };
      for (const k of ['transaction_date', 'document_date', 'description', 'currency'] as const) if (r[k] !== undefined) j[k] = r[k];
      for (const pair of r.pairs) {
        const debit: Line = { account_id: p.accounts[pair.debitAccount].id, debit_minor: pair.amount };
        if (pair.text !== undefined) debit.line_text = pair.text;
        if (pair.tax) debit.tax_code_id = p.tax_codes[0].id;
        if (pair.dims !== undefined) debit.dimension_refs = pair.dims;
        j.lines.push(debit, { account_id: p.accounts[pair.creditAccount].id, credit_minor: pair.amount, debit_minor: 0 });
      }
      return j;
    });

  it('answers every valid balanced journal with exactly the success body', async () => {
    await fc.assert(
      fc.asyncProperty(validJournal, async (journal) => {
        const res = await prepare(JSON.stringify(journal));
        expect(res.status).toBe(200);
        expect(res.body).toEqual(SUCCESS);
      }),
      { numRuns: 40 },
    );
  });

  /** Each mutation turns a valid journal into an invalid one and says what the answer must be. */
  type Mutation = { apply: (j: Journal) => void; status: number; code: string; pointer: string | null };
  const mutation = (j: Journal, pick: number, salt: number): Mutation => {
    const i = pick % j.lines.length;
    const kinds: Mutation[] = [
      { apply: (x) => delete (x as Partial<Journal>).posting_date, status: 400, code: 'invalid_input', pointer: '/posting_date' },
      { apply: (x) => (x.posting_date = `${x.posting_date}T00:00:00Z`), status: 400, code: 'invalid_input', pointer: '/posting_date' },
      { apply: (x) => (x.currency = 'EUR'), status: 400, code: 'invalid_input', pointer: '/currency' },
      { apply: (x) => (x.lines[i].debit_minor = -1 - (salt % 1000)), status: 400, code: 'invalid_amount', pointer: `/lines/${i}/debit_minor` },
      { apply: (x) => (x.lines[i].credit_minor = String(salt)), status: 400, code: 'invalid_amount', pointer: `/lines/${i}/credit_minor` },
      { apply: (x) => (x.lines[i].debit_minor = MAX + 1), status: 400, code: 'invalid_amount', pointer: `/lines/${i}/debit_minor` },
      { apply: (x) => (x.lines[i].colour = salt), status: 400, code: 'invalid_input', pointer: `/lines/${i}/colour` },
      { apply: (x) => (x.lines[i].account_id = 'not-a-uuid'), status: 400, code: 'invalid_input', pointer: `/lines/${i}/account_id` },
      { apply: (x) => ((x.lines[i].debit_minor = 0), (x.lines[i].credit_minor = 0)), status: 400, code: 'invalid_input', pointer: `/lines/${i}` },
      { apply: (x) => (x.lines = x.lines.slice(0, 1)), status: 400, code: 'invalid_input', pointer: '/lines' },
      {
        apply: (x) => {
          // one øre more or less on the line's non-zero side
          const l = x.lines[i];
          const side = typeof l.debit_minor === 'number' && l.debit_minor > 0 ? 'debit_minor' : 'credit_minor';
          const v = l[side] as number;
          l[side] = v < MAX ? v + 1 : v - 1;
        },
        status: 422,
        code: 'journal_unbalanced',
        pointer: null,
      },
      { apply: (x) => (x.lines[i].account_id = randomUUID()), status: 422, code: 'reference_not_allowed', pointer: `/lines/${i}/account_id` },
    ];
    return kinds[salt % kinds.length];
  };

  it('answers any single mutation into an invalid journal with the code and pointer that mutation calls for', async () => {
    await fc.assert(
      fc.asyncProperty(validJournal, fc.nat(), fc.nat(), async (journal, pick, salt) => {
        const m = mutation(journal, pick, salt);
        m.apply(journal);
        const res = await prepare(JSON.stringify(journal));
        expect(res.status).toBe(m.status);
        expect(res.body.code).toBe(m.code);
        if (m.pointer) expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(m.pointer);
      }),
      { numRuns: 60 },
    );
  });

  it('never answers any JSON body with a 5xx', async () => {
    const bodies = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.constantFrom('posting_date', 'lines', 'currency', 'description', 'x', '__proto__'), fc.jsonValue({ maxDepth: 3 })),
      fc.record({
        posting_date: fc.jsonValue({ maxDepth: 1 }),
        lines: fc.array(
          fc.dictionary(
            fc.constantFrom('account_id', 'debit_minor', 'credit_minor', 'tax_code_id', 'dimension_refs', 'line_text', 'y'),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          { maxLength: 4 },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await prepare(JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        expect([200, 400, 422]).toContain(res.status);
      }),
      { numRuns: 150 },
    );
  });
});

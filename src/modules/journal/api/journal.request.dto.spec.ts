import fc from 'fast-check';
import { validateObject } from '../../../shared/http/validation/body-validation.pipe';
import { JournalLineRequestDto, JournalRequestDto } from './journal.request.dto';

/** The journal DTOs through the validation mechanism, against generated lines (seed 2.2, CONTRACT §5). */

const MAX = 99_999_999_999_999;
const amount = fc.oneof(fc.constant(MAX), fc.integer({ min: 1, max: MAX }));
const zero = fc.constantFrom<unknown>(undefined, 0, null);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.oneof(fc.constant(undefined), fc.constant(null), arb);
const text = (max: number) => fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: max });

/** A valid line, as JSON; `undefined` members are left out. */
const validLine = fc
  .record({
    account_id: fc.uuid().map((u) => u.toUpperCase()),
    side: fc.constantFrom('debit_minor', 'credit_minor'),
    amount,
    zero,
    tax_code_id: optional(fc.uuid()),
    dimension_refs: optional(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 20 })),
    line_text: optional(text(500)),
  })
  .map(({ side, amount: a, zero: z, ...rest }) => {
    const other = side === 'debit_minor' ? 'credit_minor' : 'debit_minor';
    return JSON.parse(JSON.stringify({ ...rest, [side]: a, [other]: z })) as Record<string, unknown>;
  });

describe('JournalLineRequestDto', () => {
  it('accepts any valid line and normalizes every default (CONTRACT §5)', () => {
    fc.assert(
      fc.property(validLine, (raw) => {
        const { value, violations } = validateObject(raw, JournalLineRequestDto);
        expect(violations).toEqual([]);
        expect({ ...value }).toEqual({
          account_id: raw.account_id,
          debit_minor: raw.debit_minor ?? 0,
          credit_minor: raw.credit_minor ?? 0,
          tax_code_id: raw.tax_code_id ?? null,
          dimension_refs: raw.dimension_refs ?? [],
          line_text: raw.line_text ?? null,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('judges the one-side rule only on valid amounts, at the line pointer', () => {
    const amountValue = fc.oneof(amount, zero, fc.constantFrom<unknown>(-1, 1.5, MAX + 1, '5', true, [], {}));
    fc.assert(
      fc.property(fc.uuid(), amountValue, amountValue, (id, debit, credit) => {
        const raw = JSON.parse(JSON.stringify({ account_id: id, debit_minor: debit, credit_minor: credit }));
        const valid = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX);
        const positive = (v: unknown) => typeof v === 'number' && v > 0;
        const expected: string[][] = [];
        if (!valid(debit)) expected.push(['/lines/7/debit_minor', 'invalid_amount']);
        if (!valid(credit)) expected.push(['/lines/7/credit_minor', 'invalid_amount']);
        if (valid(debit) && valid(credit) && positive(debit) === positive(credit)) expected.push(['/lines/7', 'invalid_input']);
        const { violations } = validateObject(raw, JournalLineRequestDto, '/lines/7');
        expect(violations.map((v) => [v.pointer, v.code])).toEqual(expected);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('JournalRequestDto', () => {
  it('accepts 2 to 500 valid lines and refuses 0, 1 and 501 at /lines', () => {
    const line = { account_id: '8c4f1e0a-3b2d-4c5e-9f60-718293a4b5c6', debit_minor: 1 };
    for (const [n, ok] of [
      [0, false],
      [1, false],
      [2, true],
      [500, true],
      [501, false],
    ] as const) {
      const { violations } = validateObject({ posting_date: '2024-02-29', lines: Array.from({ length: n }, () => ({ ...line })) }, JournalRequestDto);
      expect([n, violations.map((v) => v.pointer)]).toEqual([n, ok ? [] : ['/lines']]);
    }
  });

  it('fills the journal defaults', () => {
    fc.assert(
      fc.property(fc.array(validLine, { minLength: 2, maxLength: 5 }), fc.constantFrom<unknown>(undefined, null, 'DKK'), (lines, currency) => {
        const raw = JSON.parse(JSON.stringify({ posting_date: '2026-11-20', currency, lines }));
        const { value, violations } = validateObject(raw, JournalRequestDto);
        expect(violations).toEqual([]);
        expect([value.transaction_date, value.document_date, value.description, value.currency, value.lines.length]).toEqual([
          null,
          null,
          null,
          'DKK',
          lines.length,
        ]);
        for (const l of value.lines) expect(l).toBeInstanceOf(JournalLineRequestDto);
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { DomainError } from '../../../shared/domain/errors';
import { MAX_MINOR } from '../../../shared/domain/money';
import { assertBalanced, JournalUnbalancedError } from './journal-balance';

type Line = { debit_minor: number; credit_minor: number };

const MAX = 99_999_999_999_999;
const debit = (amount: number): Line => ({ debit_minor: amount, credit_minor: 0 });
const credit = (amount: number): Line => ({ debit_minor: 0, credit_minor: amount });

/** `aJournal({ lines })`: half debits, half credits, each of `amount`. */
function aJournal({ lines, amount = MAX }: { lines: number; amount?: number }): Line[] {
  return Array.from({ length: lines }, (_, i) => (i % 2 === 0 ? debit(amount) : credit(amount)));
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('assertBalanced', () => {
  it('passes 500 lines of MAX on each side, whose sums exceed 2^53', () => {
    const lines = aJournal({ lines: 1000 });
    expect(MAX * 500).toBeGreaterThan(2 ** 53);
    expect(() => assertBalanced(lines)).not.toThrow();
  });

  it('refuses the same journal with one line one øre short, where floating point would not see it', () => {
    const lines = aJournal({ lines: 1000 });
    lines[999] = credit(MAX - 1);
    // the float sums are equal: this is why bigint is needed
    expect(lines.reduce((a, l) => a + l.debit_minor, 0)).toBe(lines.reduce((a, l) => a + l.credit_minor, 0));
    expect(() => assertBalanced(lines)).toThrow(JournalUnbalancedError);
  });

  it('reports the code and the two exact sums of the caller\u2019s own lines, and nothing else', () => {
    const lines = aJournal({ lines: 1000 });
    lines[0] = debit(MAX - 1);
    const error = thrown(() => assertBalanced(lines)) as JournalUnbalancedError;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.name).toBe('JournalUnbalancedError');
    expect(error.code).toBe('journal_unbalanced');
    expect(error.violations).toBeUndefined();
    // 500 × 99999999999999 = 49999999999999500, written out by hand
    expect(error.detail).toBe('The sum of debits (49999999999999499 øre) differs from the sum of credits (49999999999999500 øre)');
  });

  it('passes an empty journal and a journal of zero lines', () => {
    expect(() => assertBalanced([])).not.toThrow();
    expect(() => assertBalanced([debit(0), credit(0)])).not.toThrow();
  });

  it('passes when the debits equal the credits, in any order and split', () => {
    const amounts = fc.array(fc.integer({ min: 1, max: MAX_MINOR }), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(amounts, fc.integer({ min: 1, max: 5 }), (debits, parts) => {
        // credits: the same total, cut into differently sized pieces
        const total = debits.reduce((a, v) => a + BigInt(v), 0n);
        const credits: number[] = [];
        let rest = total;
        for (let i = 1; i < parts && rest > 1n; i++) {
          const piece = rest / 2n > BigInt(MAX_MINOR) ? BigInt(MAX_MINOR) : rest / 2n;
          credits.push(Number(piece));
          rest -= piece;
        }
        while (rest > 0n) {
          const piece = rest > BigInt(MAX_MINOR) ? BigInt(MAX_MINOR) : rest;
          credits.push(Number(piece));
          rest -= piece;
        }
        const lines = [...debits.map(debit), ...credits.map(credit)];
        expect(() => assertBalanced(lines)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses any journal whose sides differ, by as little as one øre', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: MAX_MINOR - 1 }), { minLength: 1, maxLength: 500 }),
        fc.nat(),
        fc.boolean(),
        (amounts, which, onDebitSide) => {
          const lines = [...amounts.map(debit), ...amounts.map(credit)];
          const index = (which % amounts.length) + (onDebitSide ? 0 : amounts.length);
          const line = lines[index];
          lines[index] = onDebitSide ? debit(line.debit_minor + 1) : credit(line.credit_minor + 1);
          expect(() => assertBalanced(lines)).toThrow(JournalUnbalancedError);
        },
      ),
      { numRuns: 300 },
    );
  });
});

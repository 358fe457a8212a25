import fc from 'fast-check';
import { isMinorAmount, MAX_MINOR, sumMinor } from './money';

describe('MAX_MINOR', () => {
  it('is the contract bound 99999999999999 and an exact JavaScript integer', () => {
    expect(MAX_MINOR).toBe(Number('99999999999999'));
    expect(Number.isSafeInteger(MAX_MINOR)).toBe(true);
  });
});

describe('isMinorAmount', () => {
  it.each([0, -0, 1, 100, 1e2, MAX_MINOR])('accepts %p', (v) => {
    expect(isMinorAmount(v)).toBe(true);
  });

  it.each([-1, 1.5, 0.1, MAX_MINOR + 1, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity, '100', '0', true, false, null, undefined, [1], { value: 1 }, 1n])(
    'refuses %p',
    (v) => {
      expect(isMinorAmount(v)).toBe(false);
    },
  );

  it('accepts exactly the integers of 0…MAX_MINOR', () => {
    fc.assert(
      fc.property(fc.double({ min: -2 * MAX_MINOR, max: 2 * MAX_MINOR }), (v) => {
        const expected = Math.trunc(v) === v && v >= 0 && v <= 99_999_999_999_999;
        expect(isMinorAmount(v)).toBe(expected);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 46_566 }), (lo, hi) => {
        const v = hi * 2 ** 31 + lo; // spans up to and just past MAX_MINOR
        expect(isMinorAmount(v)).toBe(v <= 99_999_999_999_999);
      }),
    );
  });
});

describe('sumMinor', () => {
  it('is exact beyond 2^53', () => {
    const values = Array.from({ length: 500 }, () => MAX_MINOR);
    expect(sumMinor(values)).toBe(BigInt('99999999999999') * 500n);
    expect(sumMinor([...values, 1])).toBe(BigInt('99999999999999') * 500n + 1n);
  });

  it('is exact for safe integers at the edge of the double range, either sign', () => {
    const M = Number.MAX_SAFE_INTEGER;
    expect(sumMinor([M, M, M])).toBe(BigInt(M) * 3n);
    expect(sumMinor([M, 1, -M, -M, -1])).toBe(-BigInt(M));
    expect(sumMinor([M - 1, 1, 1])).toBe(BigInt(M) + 1n);
  });

  it('is 0n for no values and treats -0 as 0', () => {
    expect(sumMinor([])).toBe(0n);
    expect(sumMinor([-0])).toBe(0n);
  });

  it('equals a digit-string long addition on arbitrary amounts', () => {
    /** Independent oracle: schoolbook decimal addition on strings. */
    const addDecimal = (a: string, b: string): string => {
      let out = '';
      let carry = 0;
      for (let i = a.length - 1, j = b.length - 1; i >= 0 || j >= 0 || carry; i--, j--) {
        const s = (i >= 0 ? a.charCodeAt(i) - 48 : 0) + (j >= 0 ? b.charCodeAt(j) - 48 : 0) + carry;
        out = String(s % 10) + out;
        carry = s >= 10 ? 1 : 0;
      }
      return out.replace(/^0+(?=\d)/, '') || '0';
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: MAX_MINOR }), { maxLength: 600 }), (values) => {
        const expected = values.reduce((acc, v) => addDecimal(acc, String(v)), '0');
        expect(sumMinor(values).toString()).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('throws on a value that is not a safe integer (amounts are validated first)', () => {
    expect(() => sumMinor([1.5])).toThrow(RangeError);
    expect(() => sumMinor([NaN])).toThrow(RangeError);
    expect(() => sumMinor([2 ** 60])).toThrow(RangeError);
  });
});

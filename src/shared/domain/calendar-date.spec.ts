import fc from 'fast-check';
import { calendarMonthOf, calendarYearOf, isCalendarDate } from './calendar-date';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Independent oracle: let the platform's UTC calendar say whether (y, m, d) survives a round trip. */
function oracleIsRealDate(y: number, m: number, d: number): boolean {
  if (y < 1) return false; // our decision: year 0000 is refused
  const probe = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  probe.setUTCFullYear(y, m - 1, d);
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

describe('isCalendarDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2024-00-10', false],
    ['2024-13-10', false],
    ['2024-01-00', false],
    ['2024-01-32', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['0000-01-01', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
  ])('%s → %s', (input, expected) => {
    expect(isCalendarDate(input)).toBe(expected);
  });

  it.each([
    '2024-2-29',
    '24-02-29',
    '2024/02/29',
    '2024-02-29T00:00:00Z',
    '2024-02-29 ',
    ' 2024-02-29',
    '2024-02-29\n',
    '+02024-02-29',
    '２０２４-02-29', // full-width digits are not \d
    '٢٠٢٤-02-29', // Arabic-Indic digits are not \d
    '',
  ])('refuses the shape %j', (input) => {
    expect(isCalendarDate(input)).toBe(false);
  });

  it.each([null, undefined, 20240229, new Date('2024-02-29'), ['2024-02-29'], { toString: () => '2024-02-29' }])('refuses the non-string %p', (input) => {
    expect(isCalendarDate(input)).toBe(false);
  });

  it('agrees with a UTC round-trip oracle on generated y/m/d triples', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        expect(isCalendarDate(text)).toBe(oracleIsRealDate(y, m, d));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the oracle on every day of a leap-rule-heavy set of years', () => {
    for (const y of [1, 4, 100, 1600, 1700, 1800, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999]) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 1; d <= 31; d++) {
          expect([y, m, d, isCalendarDate(`${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`)]).toEqual([y, m, d, oracleIsRealDate(y, m, d)]);
        }
      }
    }
  });

  it('refuses arbitrary strings that are not of the YYYY-MM-DD shape', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        fc.pre(!/^\d{4}-\d{2}-\d{2}$/.test(s));
        expect(isCalendarDate(s)).toBe(false);
      }),
    );
  });
});

describe('calendarMonthOf / calendarYearOf', () => {
  it('take the month key and year from the digits, not from a Date in some time zone', () => {
    expect(calendarMonthOf('2024-01-01')).toBe('2024-01');
    expect(calendarMonthOf('2023-12-31')).toBe('2023-12');
    expect(calendarYearOf('2023-12-31')).toBe(2023);
    expect(calendarYearOf('0001-01-01')).toBe(1);
  });

  it('match the generated parts of any valid date', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), (dt) => {
        const y = dt.getUTCFullYear();
        const m = dt.getUTCMonth() + 1;
        const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(dt.getUTCDate(), 2)}`;
        expect(calendarYearOf(text)).toBe(y);
        expect(calendarMonthOf(text)).toBe(`${pad(y, 4)}-${pad(m, 2)}`);
      }),
    );
  });

  it('throw on something that is not a calendar date (a caller defect)', () => {
    expect(() => calendarMonthOf('2023-02-29')).toThrow(RangeError);
    expect(() => calendarYearOf('yesterday')).toThrow(RangeError);
  });
});

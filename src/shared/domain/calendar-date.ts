const SHAPE = /^\d{4}-\d{2}-\d{2}$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * CONTRACT §5 "date": exactly `YYYY-MM-DD` and a real (proleptic Gregorian) calendar date, no time
 * part. Judged on the digits alone, never through `Date`, so no time zone or two-digit-year rule
 * (`Date.UTC(99, …)` is 1999) can shift the answer. Year 0000 is refused: the accounting core has no
 * year zero, and four digits give 0001–9999.
 */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !SHAPE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function requireCalendarDate(date: string): void {
  // A defect of the caller, not bad input: input is validated before it gets here.
  if (!isCalendarDate(date)) throw new RangeError('not a calendar date YYYY-MM-DD');
}

/** `'2024-02-29'` → `'2024-02'`: the key of an accounting period, without a `Date` in between. */
export function calendarMonthOf(date: string): string {
  requireCalendarDate(date);
  return date.slice(0, 7);
}

/** `'2024-02-29'` → `2024`. */
export function calendarYearOf(date: string): number {
  requireCalendarDate(date);
  return Number(date.slice(0, 4));
}

/**
 * The largest amount of one field, in øre (CONTRACT §4 `invalid_amount`: an integer within
 * 0…99999999999999). It is below 2^53, so every valid amount is an exact JavaScript number; their
 * sums are not (CONTRACT §5), hence `sumMinor`.
 */
export const MAX_MINOR = 99_999_999_999_999;

/**
 * CONTRACT §4/§5: an amount is a JSON integer within 0…MAX_MINOR and nothing is coerced — `"100"`,
 * `true`, `1.5`, NaN and ±Infinity are refused. `-0` is accepted as 0 (JSON `-0` is the number zero).
 */
export function isMinorAmount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_MINOR;
}

/**
 * Exact sum of øre amounts. CONTRACT §5: 500 lines of MAX_MINOR exceed 2^53, where floating point
 * would round away a one-øre difference, so the sum is a bigint.
 * @throws RangeError for a value that is not a safe integer (a defect: amounts are validated first).
 */
export function sumMinor(values: readonly number[]): bigint {
  return sumMinorOf(values, (v) => v);
}

/** sumMinor of one amount of each item (a journal's debits), without an array of the amounts in between. */
export function sumMinorOf<T>(items: readonly T[], amount: (item: T) => number): bigint {
  // exact: whole numbers are summed as doubles while the running sum stays a safe integer, and moved
  // into the bigint before it could leave that range (one bigint per ~90 maximal amounts, not per value)
  let sum = 0n;
  let part = 0;
  for (let i = 0; i < items.length; i++) {
    const v = amount(items[i]);
    if (!Number.isSafeInteger(v)) throw new RangeError('an amount is not a safe integer');
    if (part + v > Number.MAX_SAFE_INTEGER || part + v < Number.MIN_SAFE_INTEGER) {
      sum += BigInt(part);
      part = 0;
    }
    part += v;
  }
  return sum + BigInt(part);
}

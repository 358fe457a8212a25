// the scopes the service knows are the modules' (their facts.ts): the contract's, as the service loads them
import '../../../journal/facts';
import '../../../products/facts';
import '../../../receipts/facts';
import { accountIdCandidates, accountIdViolations, grantExpiry, MAX_GRANT_SECONDS, scopeViolations } from './grant-rules';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const FOREIGN = '33333333-3333-4333-8333-333333333333';

describe('accountIdCandidates', () => {
  it('keeps the well-formed ids, lower-cased and once each', () => {
    expect(accountIdCandidates([A, A.toUpperCase(), 'nope', 7, null, B])).toEqual([A, B]);
  });
});

describe('accountIdViolations', () => {
  const existing = new Set([A, B]);

  it('accepts distinct accounts of the organization, in either case', () => {
    expect(accountIdViolations([A, B.toUpperCase()], existing)).toEqual([]);
  });

  it('points at each id that is not an account of the organization, whatever it is', () => {
    const v = accountIdViolations([A, FOREIGN, 'not-a-uuid', 42, null, B], existing);
    expect(v.map((x) => x.pointer)).toEqual(['/account_ids/1', '/account_ids/2', '/account_ids/3', '/account_ids/4']);
    expect(new Set(v.map((x) => x.detail))).toEqual(new Set(['is not an account of the organization']));
    expect(v.every((x) => x.code === 'invalid_input')).toBe(true);
  });

  it('points at a repeated id, also when only its case differs', () => {
    expect(accountIdViolations([A, B, A.toUpperCase()], existing)).toEqual([
      { pointer: '/account_ids/2', code: 'invalid_input', detail: 'repeats an earlier account id' },
    ]);
  });
});

describe('scopeViolations', () => {
  it('accepts the four scopes of CONTRACT §8', () => {
    expect(scopeViolations(['journal:prepare', 'journal:post', 'products:create', 'operations:read'])).toEqual([]);
  });

  it('points at unknown and repeated scopes', () => {
    expect(scopeViolations(['journal:prepare', 'journal:delete', 'Journal:prepare', 3, 'journal:prepare'])).toEqual([
      { pointer: '/scopes/1', code: 'invalid_input', detail: 'is not a known scope' },
      { pointer: '/scopes/2', code: 'invalid_input', detail: 'is not a known scope' },
      { pointer: '/scopes/3', code: 'invalid_input', detail: 'is not a known scope' },
      { pointer: '/scopes/4', code: 'invalid_input', detail: 'repeats an earlier scope' },
    ]);
  });
});

describe('grantExpiry', () => {
  const at = new Date('2026-11-20T10:00:00.000Z');

  it('is 90 days (7,776,000 s) at most', () => {
    expect(MAX_GRANT_SECONDS).toBe(90 * 24 * 60 * 60);
    expect(grantExpiry(at, 7_776_000).toISOString()).toBe('2027-02-18T10:00:00.000Z');
    expect(grantExpiry(at, 1).toISOString()).toBe('2026-11-20T10:00:01.000Z');
  });

  it('refuses durations outside 1…7,776,000 s', () => {
    for (const d of [0, -1, 7_776_001, 1.5, Number.NaN]) expect(() => grantExpiry(at, d)).toThrow(RangeError);
  });
});

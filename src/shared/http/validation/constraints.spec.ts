import fc from 'fast-check';
import { validateObject } from './body-validation.pipe';
import {
  IsArrayField,
  IsArrayOfField,
  IsCalendarDateField,
  IsFieldWith,
  IsIntegerField,
  IsMatchingField,
  IsMinorAmountField,
  IsOneOfField,
  IsTextField,
  isUuid,
  IsUuidField,
} from './constraints';
import { Amount, Optional, Required } from './fields';
import { Matches, Required as RequiredFromIndex } from './index';

/**
 * Each constraint judged through validateObject on a one-field DTO, against oracles written here from
 * CONTRACT §5 (code points, uuid shape, integers 0…99999999999999), never from the constraint itself.
 */

class TextDto {
  @Required()
  @IsTextField(2, 6)
  v: string;
}
class NullableTextDto {
  @Optional(null)
  @IsTextField(1, 3, { nullable: true })
  v: string | null;
}
class UuidDto {
  @Required()
  @IsUuidField()
  v: string;
}
class AmountDto {
  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  v: number;
}
class DateDto {
  @Required()
  @IsCalendarDateField()
  v: string;
}
class OneOfDto {
  @Optional('stk')
  @IsOneOfField(['stk', 'stk.', 'kg'])
  v: string;
}
class ArrayDto {
  @Optional([])
  @IsArrayField(0, 20)
  v: unknown[];
}
class IntegerDto {
  @Required()
  @IsIntegerField(1, 7_776_000)
  v: number;
}
class DistinctUuidsDto {
  @Required()
  @IsArrayOfField(1, 3, isUuid, 'uuids', { unique: true })
  v: string[];
}

/** A module's own rules, as issue 36's CVR number needed: 8 digits, and (with IsFieldWith) the modulus 11 check. */
class CvrDto {
  @Required()
  @IsMatchingField(/[0-9]{8}/, 'must be a CVR number of 8 digits')
  v: string;
}
/** The same rule as a module writes it, from the validation kernel's public surface (index.ts). */
class MatchesCvrDto {
  @RequiredFromIndex()
  @Matches(/[0-9]{8}/, 'must be a CVR number of 8 digits')
  v: string;
}
const CVR_WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1];
class CheckedCvrDto {
  @Required()
  @IsFieldWith(
    'cvr',
    (v) => typeof v === 'string' && /^[0-9]{8}$/.test(v) && [...v].reduce((sum, d, i) => sum + Number(d) * CVR_WEIGHTS[i], 0) % 11 === 0,
    'must be a valid CVR number',
  )
  v: string;
}

const MAX = 99_999_999_999_999;
const accepts = (type: new () => object, v: unknown) => validateObject(v === undefined ? {} : { v }, type).violations.length === 0;
const violationsOf = (type: new () => object, v: unknown) => validateObject({ v }, type).violations;

/** Any JSON value (what a request body can carry). */
const json = fc.jsonValue({ maxDepth: 2 });
/** Non-surrogate code points, astral ones (emoji) included: each is one character (CONTRACT §5). */
const codePoint = fc.oneof(fc.integer({ min: 1, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }), fc.integer({ min: 0x1f600, max: 0x1f64f }));

describe('IsTextField (lengths in code points)', () => {
  it('accepts exactly the strings of 2 to 6 code points, however many UTF-16 units they take', () => {
    fc.assert(
      fc.property(fc.array(codePoint, { maxLength: 14 }), (cps) => {
        const s = String.fromCodePoint(...cps);
        expect(accepts(TextDto, s)).toBe(cps.length >= 2 && cps.length <= 6);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses NUL and unpaired surrogates, which PostgreSQL cannot store as given', () => {
    for (const bad of ['a\u0000', 'a\ud800', '\udc00a', 'ab\ud83d']) expect(accepts(TextDto, bad)).toBe(false);
    expect(accepts(TextDto, 'a\ud83d\ude00')).toBe(true);
  });

  it('counts emoji as one character at both bounds', () => {
    expect(accepts(TextDto, '😀😀😀😀😀😀')).toBe(true);
    expect(accepts(TextDto, '😀😀😀😀😀😀😀')).toBe(false);
    expect(accepts(TextDto, '😀')).toBe(false);
    expect(accepts(TextDto, '😀a')).toBe(true);
  });

  it('refuses every value that is not a string, and does not trim', () => {
    fc.assert(
      fc.property(
        json.filter((v) => typeof v !== 'string'),
        (v) => expect(accepts(TextDto, v)).toBe(false),
      ),
    );
    expect(accepts(TextDto, '  ')).toBe(true);
  });

  it('takes null as "not given" on a nullable optional field, and still bounds a string', () => {
    expect(validateObject({ v: null }, NullableTextDto)).toEqual({ value: expect.objectContaining({ v: null }), violations: [] });
    expect(accepts(NullableTextDto, '')).toBe(false);
    expect(accepts(NullableTextDto, '😀😀😀')).toBe(true);
  });

  it('says "is required" when absent and "must not be null" when null on a required field', () => {
    expect(validateObject({}, TextDto).violations).toEqual([{ pointer: '/v', code: 'invalid_input', detail: 'is required' }]);
    expect(violationsOf(TextDto, null)).toEqual([
      { pointer: '/v', code: 'invalid_input', detail: 'must not be null; must be a string of 2 to 6 characters of valid Unicode text without NUL' },
    ]);
  });
});

describe('IsUuidField', () => {
  it('accepts any uuid in any mix of case, any version', () => {
    fc.assert(
      fc.property(fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] }), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }), (u, upper) => {
        const mixed = [...u].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        expect(accepts(UuidDto, mixed)).toBe(true);
      }),
    );
    expect(accepts(UuidDto, '00000000-0000-0000-0000-000000000000')).toBe(true);
  });

  it('refuses a uuid with one character changed into a non-hex one, or a hyphen moved, dropped or added', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat({ max: 35 }), fc.constantFrom('g', 'G', 'z', ' ', '-', '_', '{', 'é'), (u, i, c) => {
        fc.pre(!(c === '-' && u[i] === '-'));
        const changed = u.slice(0, i) + c + u.slice(i + 1);
        expect(accepts(UuidDto, changed)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(accepts(UuidDto, u.replace(/-/g, ''))).toBe(false);
        expect(accepts(UuidDto, `{${u}}`)).toBe(false);
        expect(accepts(UuidDto, `${u}\n`)).toBe(false);
        expect(accepts(UuidDto, `urn:uuid:${u}`)).toBe(false);
      }),
    );
  });

  it('refuses every value that is not a string', () => {
    fc.assert(
      fc.property(
        json.filter((v) => typeof v !== 'string'),
        (v) => expect(accepts(UuidDto, v)).toBe(false),
      ),
    );
  });
});

describe('IsMinorAmountField (integers 0…99999999999999, nothing coerced)', () => {
  it('agrees with the contract on any JSON value', () => {
    const value = fc.oneof(
      json,
      fc.integer({ min: -10, max: 10 }),
      fc.constantFrom(MAX, MAX + 1, -0, 1e2, 1.5, '100', true, [], {}),
      fc.double(),
      fc.integer({ min: MAX - 5, max: MAX + 5 }),
    );
    fc.assert(
      fc.property(value, (v) => {
        const expected = v === null || (typeof v === 'number' && Number.isFinite(v) && Math.floor(v) === v && v >= 0 && v <= MAX);
        const violations = violationsOf(AmountDto, v);
        expect(violations.length === 0).toBe(expected);
        for (const x of violations) expect(x).toEqual({ pointer: '/v', code: 'invalid_amount', detail: 'must be an integer from 0 to 99999999999999' });
      }),
      { numRuns: 2_000 },
    );
  });

  it('fills in 0 for null or absent', () => {
    expect((validateObject({ v: null }, AmountDto).value as AmountDto).v).toBe(0);
    expect((validateObject({}, AmountDto).value as AmountDto).v).toBe(0);
  });
});

describe('IsCalendarDateField', () => {
  it('accepts any real date written YYYY-MM-DD', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        const text = d.toISOString().slice(0, 10);
        expect(accepts(DateDto, text)).toBe(true);
        expect(accepts(DateDto, d.toISOString())).toBe(false); // a time part
      }),
    );
  });

  it.each(['2024-02-29', '2000-02-29'])('accepts the leap day %s', (d) => expect(accepts(DateDto, d)).toBe(true));
  it.each(['2023-02-29', '2100-02-29', '2024-13-01', '2024-06-31', '2024-1-01', '20240101', ''])('refuses %j', (d) => expect(accepts(DateDto, d)).toBe(false));
});

describe('IsOneOfField', () => {
  it('accepts exactly the listed strings, compared exactly', () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.constantFrom('stk', 'stk.', 'kg', 'Stk', 'kg ', 'KG', 'time')), (v) => {
        expect(accepts(OneOfDto, v)).toBe(v === null || v === 'stk' || v === 'stk.' || v === 'kg');
      }),
    );
  });
});

describe('IsArrayField', () => {
  it('accepts any array of at most 20 items of any shape, and nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(json, { maxLength: 25 }), json), (v) => {
        expect(accepts(ArrayDto, v)).toBe(v === null || (Array.isArray(v) && v.length <= 20));
      }),
    );
  });
});

describe('IsIntegerField', () => {
  it('accepts exactly the integers of its range', () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.integer({ min: -3, max: 3 }), fc.integer({ min: 7_775_995, max: 7_776_005 })), (v) => {
        expect(accepts(IntegerDto, v)).toBe(typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 7_776_000);
      }),
    );
  });
});

describe('IsArrayOfField', () => {
  it('accepts 1 to 3 distinct items that pass the item test', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.uuid(), fc.string({ maxLength: 4 })), { maxLength: 5 }), fc.boolean(), (items, duplicate) => {
        const v = duplicate && items.length > 0 ? [...items, items[0]] : items;
        const expected =
          v.length >= 1 &&
          v.length <= 3 &&
          v.every((x) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(x)) &&
          new Set(v).size === v.length;
        expect(accepts(DistinctUuidsDto, v)).toBe(expected);
      }),
    );
  });
});

describe('IsMatchingField and IsFieldWith (a module declares its own rule)', () => {
  it('matches the whole string only, never a part, and refuses non-strings and NUL', () => {
    expect(accepts(CvrDto, '12345678')).toBe(true);
    for (const bad of ['1234567', '123456789', 'x12345678', '12345678\n', '1234567\u0000', 12345678, null]) expect(accepts(CvrDto, bad)).toBe(false);
    expect(violationsOf(CvrDto, '1')).toEqual([{ pointer: '/v', code: 'invalid_input', detail: 'must be a CVR number of 8 digits' }]);
  });

  it('is exported as Matches from src/shared/http/validation, with the same check, message and schema pattern', () => {
    expect(accepts(MatchesCvrDto, '12345678')).toBe(true);
    for (const bad of ['1234567', '123456789', 'x12345678', 12345678]) expect(accepts(MatchesCvrDto, bad)).toBe(false);
    expect(violationsOf(MatchesCvrDto, '1')).toEqual([{ pointer: '/v', code: 'invalid_input', detail: 'must be a CVR number of 8 digits' }]);
    expect(violationsOf(MatchesCvrDto, undefined)).toEqual([{ pointer: '/v', code: 'invalid_input', detail: 'is required' }]);
  });

  it('refuses a global pattern, whose lastIndex would make checks depend on the one before', () => {
    expect(() => IsMatchingField(/[0-9]/g, 'digits')).toThrow(/global or sticky/);
  });

  it('runs a module-specific check with one violation and its message (CVR modulus 11: 88146328 is valid, 88146329 not)', () => {
    expect(accepts(CheckedCvrDto, '88146328')).toBe(true);
    expect(violationsOf(CheckedCvrDto, '88146329')).toEqual([{ pointer: '/v', code: 'invalid_input', detail: 'must be a valid CVR number' }]);
  });
});

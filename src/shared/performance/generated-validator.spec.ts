import 'reflect-metadata';
import fc from 'fast-check';
import { JournalLineRequestDto, JournalRequestDto } from '../../modules/journal/api/journal.request.dto';
import { CreateProductRequestDto } from '../../modules/products/api/create-product.request.dto';
import { planOf, validateObject, withTheGenericWalk } from '../http/validation/body-validation.pipe';
import { IsTextField, IsUuidField } from '../http/validation/constraints';
import { CanonicalId, fieldsOf, Optional, Required } from '../http/validation/fields';

/** A class with a canonical id (no partner DTO with only compiled rules has one today). */
class CanonicalDto {
  @Required()
  @IsUuidField()
  @CanonicalId()
  id: string;

  @Optional(null)
  @IsTextField(1, 5, { nullable: true })
  note: string | null;
}

/** Values that hit every rule's edges: right and wrong types, bounds, nulls, absence, odd keys. */
const edgeValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(99999999999999, 100000000000000, 1.5, -0, Number.NaN),
  fc.constantFrom('', 'DKK', 'EUR', 'stk', '2024-02-29', '2023-02-29', 'a\u0000b', '\ud800'),
  fc.constantFrom('500d9204-EDCC-4fb5-a209-6518960920d6', '500d9204-edcc-4fb5-a209-6518960920d6', '500d9204-edcc-4fb5-a209-65189609'),
  fc.string({ maxLength: 12 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 22 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** An object with some of the class's fields (edge values), maybe unknown keys too, or not an object at all. */
function rawOf(type: Function, item?: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const names = [...fieldsOf(type)!.keys()];
  const fields = fc.record(
    Object.fromEntries(names.map((n) => [n, item && n === 'lines' ? fc.oneof(fc.array(item, { maxLength: 6 }), edgeValue) : edgeValue])),
    { requiredKeys: [] },
  );
  const extra = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'x', 'a/b~c', 'lines2'), edgeValue, { maxKeys: 2 });
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fields, extra).map(([f, e]) => JSON.parse(JSON.stringify({ ...e, ...f })) as unknown) },
    { weight: 1, arbitrary: fc.constantFrom(null, 1, 'x', [], [{}]) },
  );
}

describe('generated validators: the same answer as the generic walk (body-validation.pipe.ts)', () => {
  it.each([
    ['JournalLineRequestDto', JournalLineRequestDto, rawOf(JournalLineRequestDto)],
    ['JournalRequestDto', JournalRequestDto, rawOf(JournalRequestDto, rawOf(JournalLineRequestDto))],
    ['CreateProductRequestDto', CreateProductRequestDto, rawOf(CreateProductRequestDto)],
    ['CanonicalDto', CanonicalDto, rawOf(CanonicalDto)],
  ] as const)('%s: equal instances and violations, in order, on generated bodies', (_name, type, raw) => {
    expect(planOf(type).generated).not.toBeNull();
    fc.assert(
      fc.property(raw, (body) => {
        const generated = validateObject(body, type as new () => object);
        const walked = withTheGenericWalk(() => validateObject(body, type as new () => object));
        expect(generated.violations).toStrictEqual(walked.violations);
        expect(generated.value).toStrictEqual(walked.value);
      }),
      { numRuns: 1500 },
    );
  });

  it('is what a valid journal line goes through: its instance has every default and the cross-field rule runs', () => {
    const line = { account_id: '500D9204-edcc-4fb5-a209-6518960920d6', debit_minor: 5 };
    const { value, violations } = validateObject(line, JournalLineRequestDto);
    expect(violations).toEqual([]);
    expect(value).toBeInstanceOf(JournalLineRequestDto);
    expect({ ...value }).toEqual({
      account_id: '500D9204-edcc-4fb5-a209-6518960920d6',
      debit_minor: 5,
      credit_minor: 0,
      tax_code_id: null,
      dimension_refs: [],
      line_text: null,
    });
    expect(validateObject({ account_id: '500d9204-edcc-4fb5-a209-6518960920d6', debit_minor: 5, credit_minor: 5 }, JournalLineRequestDto).violations).toEqual([
      { pointer: '', code: 'invalid_input', detail: 'exactly one of debit_minor and credit_minor must be greater than 0' },
    ]);
  });
});

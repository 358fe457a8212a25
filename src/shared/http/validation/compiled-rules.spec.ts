import 'reflect-metadata';
import fc from 'fast-check';
import { JournalLineRequestDto, JournalRequestDto } from '../../../modules/journal/api/journal.request.dto';
import { CreateProductRequestDto } from '../../../modules/products/api/create-product.request.dto';
import { classValidatorFailures, compiledFailures } from './body-validation.pipe';
import { fieldsOf } from './fields';

/** Values that hit every rule's edges: right and wrong types, bounds, nulls, absence. */
const edgeValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(99999999999999, 100000000000000, 1.5, -0, 1e2, Number.NaN),
  fc.constantFrom('', 'DKK', 'EUR', 'stk', 'stk.', 'pcs', 'goods', '2024-02-29', '2023-02-29', '2026-11-20T00:00:00Z'),
  fc.constantFrom(
    '500d9204-EDCC-4fb5-a209-6518960920d6',
    '500d9204-edcc-4fb5-a209-65189609',
    'x'.repeat(70),
    'x'.repeat(71),
    '😀'.repeat(500),
    '😀'.repeat(501),
  ),
  fc.string({ maxLength: 12 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 22 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** The compiled rules answer exactly what class-validator answers: same fields, same messages. */
describe.each([
  ['JournalLineRequestDto', JournalLineRequestDto],
  ['JournalRequestDto', JournalRequestDto],
  ['CreateProductRequestDto', CreateProductRequestDto],
] as const)('compiled rules of %s', (_name, type) => {
  const fields = [...fieldsOf(type)!.keys()];

  it('match class-validator on generated values', () => {
    fc.assert(
      fc.property(fc.tuple(...fields.map(() => edgeValue)), (values) => {
        const instance = new (type as unknown as new () => Record<string, unknown>)();
        fields.forEach((f, i) => (instance[f] = values[i]));
        expect(compiledFailures(instance, type)).toEqual(classValidatorFailures(instance));
      }),
      { numRuns: 400 },
    );
  });

  it('record a rule for every field (the pipe takes the compiled path)', () => {
    for (const meta of fieldsOf(type)!.values()) expect(meta.rule).toBeDefined();
  });
});

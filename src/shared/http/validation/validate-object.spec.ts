import fc from 'fast-check';
import { DomainError, type Violation } from '../../domain/errors';
import { BodyValidationPipe, toInputError, validateObject } from './body-validation.pipe';
import { IsArrayField, IsCalendarDateField, IsMinorAmountField, IsOneOfField, IsTextField, IsUuidField } from './constraints';
import { Amount, type CrossFieldRule, NestedItems, NoFields, Optional, Required } from './fields';

/** A small stand-in for a request DTO, so that these tests exercise the mechanism, not one module's rules. */
class ItemDto implements CrossFieldRule {
  @Required()
  @IsUuidField()
  id: string;

  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  left: number;

  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  right: number;

  @Optional([])
  @IsArrayField(0, 3)
  tags: unknown[];

  crossFieldViolations(failed: ReadonlySet<string>): Array<{ detail: string }> {
    if (failed.has('left') || failed.has('right')) return [];
    return this.left > 0 !== this.right > 0 ? [] : [{ detail: 'exactly one side' }];
  }
}

class RootDto {
  @Required()
  @IsCalendarDateField()
  date: string;

  @Optional(null)
  @IsTextField(1, 5, { nullable: true })
  note: string | null;

  @Optional('A')
  @IsOneOfField(['A', 'B'])
  kind: 'A' | 'B';

  @Required()
  @NestedItems(() => ItemDto)
  @IsArrayField(1, 4)
  items: ItemDto[];
}

@NoFields()
class EmptyDto {}

const ID = '8c4f1e0a-3b2d-4c5e-9f60-718293a4b5c6';
const item = (over: Record<string, unknown> = {}) => ({ id: ID, left: 5, ...over });
const root = (over: Record<string, unknown> = {}) => ({ date: '2024-02-29', items: [item()], ...over });
const KNOWN_ROOT = ['date', 'note', 'kind', 'items'];
const KNOWN_ITEM = ['id', 'left', 'right', 'tags'];

/** RFC 6901 §3, written out here rather than taken from the pipe: `~` → `~0`, `/` → `~1`, in that order. */
const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
/** RFC 6901 §4 evaluation, for the round trip: a pointer must lead back to the member it names. */
function resolve(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === '') return { found: true, value: document };
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) return { found: false };
    node = (node as Record<string, unknown>)[token];
  }
  return { found: true, value: node };
}
const pairs = (violations: Violation[]) => violations.map((v) => [v.pointer, v.code]);
/** Defines an own member even for `__proto__`, as JSON.parse does. */
function withOwn(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}
const jsonValue = fc.anything({
  key: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
  maxDepth: 3,
  maxKeys: 3,
  values: [fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 6 }), fc.constant(null)],
});

describe('validateObject', () => {
  it('returns an instance of the DTO with every default filled in and no violation', () => {
    const { value, violations } = validateObject(root(), RootDto);
    expect(violations).toEqual([]);
    expect(value).toBeInstanceOf(RootDto);
    expect(value.items[0]).toBeInstanceOf(ItemDto);
    expect({ ...value, items: value.items.map((i) => ({ ...i })) }).toEqual({
      date: '2024-02-29',
      note: null,
      kind: 'A',
      items: [{ id: ID, left: 5, right: 0, tags: [] }],
    });
  });

  it('treats null on an optional field as absent, and gives each call its own default array', () => {
    const a = validateObject(root({ note: null, kind: null, items: [item({ right: null, tags: null })] }), RootDto);
    const b = validateObject(root(), RootDto);
    expect(a.violations).toEqual([]);
    expect([a.value.note, a.value.kind, a.value.items[0].right, a.value.items[0].tags]).toEqual([null, 'A', 0, []]);
    a.value.items[0].tags.push('mutated');
    expect(b.value.items[0].tags).toEqual([]);
  });

  it('refuses null and absence on a required field with distinct details', () => {
    const absent = validateObject({ items: [item()] }, RootDto).violations;
    const nulled = validateObject(root({ date: null }), RootDto).violations;
    expect(absent).toEqual([{ pointer: '/date', code: 'invalid_input', detail: 'is required' }]);
    expect(nulled).toEqual([{ pointer: '/date', code: 'invalid_input', detail: 'must not be null; must be a calendar date YYYY-MM-DD' }]);
  });

  it('gives amount fields the code invalid_amount and every other field invalid_input', () => {
    const { violations } = validateObject(root({ note: '', items: [item({ left: -1, right: '2', tags: {} })] }), RootDto);
    expect(pairs(violations)).toEqual([
      ['/note', 'invalid_input'],
      ['/items/0/left', 'invalid_amount'],
      ['/items/0/right', 'invalid_amount'],
      ['/items/0/tags', 'invalid_input'],
    ]);
  });

  it('lists unknown fields first, then fields in declaration order with nested items in place, then the cross-field rule', () => {
    const raw = { zzz: 1, items: [item(), item({ id: 'x', right: 1, extra: 2 })], date: 'no', kind: 'C', aaa: 2 };
    const { violations } = validateObject(raw, RootDto);
    expect(pairs(violations)).toEqual([
      ['/zzz', 'invalid_input'],
      ['/aaa', 'invalid_input'],
      ['/date', 'invalid_input'],
      ['/kind', 'invalid_input'],
      ['/items/1/extra', 'invalid_input'],
      ['/items/1/id', 'invalid_input'],
      ['/items/1', 'invalid_input'],
    ]);
  });

  it('reports an array over its maxItems once, at its own pointer, without examining its items (CONTRACT §4)', () => {
    const { violations } = validateObject(root({ items: [item(), item(), item(), item(), item({ id: 1 })] }), RootDto);
    expect(pairs(violations)).toEqual([['/items', 'invalid_input']]);
  });

  it('still examines the items of an array within its bounds, after the array itself', () => {
    const { violations } = validateObject(root({ items: [item(), item({ id: 1 })] }), RootDto);
    expect(pairs(violations)).toEqual([['/items/1/id', 'invalid_input']]);
  });

  it('keeps the cross-field rule silent while one of its amounts is invalid', () => {
    expect(pairs(validateObject(item({ left: 1.5, right: 3 }), ItemDto).violations)).toEqual([['/left', 'invalid_amount']]);
    expect(pairs(validateObject(item({ left: 0 }), ItemDto).violations)).toEqual([['', 'invalid_input']]);
  });

  it('answers "must be an object" at the pointer of anything that is not a plain object', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.array(jsonValue, { maxLength: 3 })), (v) => {
        expect(validateObject(root({ items: [v] }), RootDto).violations).toEqual([{ pointer: '/items/0', code: 'invalid_input', detail: 'must be an object' }]);
      }),
    );
  });

  it('names every unknown member, prototype-looking ones included, with an RFC 6901 pointer that leads back to it', () => {
    const key = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '~', '/', '~1', '~0/', 'a/b~c'),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 5 }), fc.uniqueArray(key, { maxLength: 5 }), jsonValue, (topKeys, itemKeys, v) => {
        const unknownTop = topKeys.filter((k) => !KNOWN_ROOT.includes(k));
        const unknownItem = itemKeys.filter((k) => !KNOWN_ITEM.includes(k));
        const body = root();
        const it0 = item();
        for (const k of unknownTop) withOwn(body, k, v);
        for (const k of unknownItem) withOwn(it0, k, v);
        body.items = [it0];
        // through JSON text and back, as the request would arrive
        const parsed = JSON.parse(JSON.stringify(body));
        const { violations } = validateObject(parsed, RootDto);
        const expected = [...unknownTop.map((k) => `/${escapeToken(k)}`), ...unknownItem.map((k) => `/items/0/${escapeToken(k)}`)];
        // (as a set: Object.keys lists integer-like keys first, whatever the order in the text)
        expect(violations.map((x) => x.pointer).sort()).toEqual(expected.sort());
        for (const x of violations) {
          expect(x.code).toBe('invalid_input');
          expect(resolve(parsed, x.pointer).found).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, and never lets a value through unchecked, for arbitrary JSON in every field', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...KNOWN_ROOT, 'x'), jsonValue),
        fc.array(fc.dictionary(fc.constantFrom(...KNOWN_ITEM, 'y'), jsonValue), { maxLength: 3 }),
        (top, items) => {
          const raw = JSON.parse(JSON.stringify({ ...top, ...(top.items === undefined ? { items } : {}) }));
          const { value, violations } = validateObject(raw, RootDto);
          for (const v of violations) expect(resolve(raw, v.pointer).found || v.detail === 'is required').toBe(true);
          if (violations.length === 0) {
            // whatever passed is the shape the DTO promises
            expect(typeof value.date).toBe('string');
            expect(value.note === null || typeof value.note === 'string').toBe(true);
            expect(['A', 'B']).toContain(value.kind);
            for (const i of value.items) {
              expect(Number.isInteger(i.left) && Number.isInteger(i.right)).toBe(true);
              expect(Array.isArray(i.tags)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leaves Object.prototype alone whatever the members are called', () => {
    const raw = JSON.parse(
      '{"__proto__":{"polluted":1},"date":"2024-01-01","items":[{"id":"' +
        ID +
        '","left":1,"tags":[{"__proto__":{"polluted":2}},{"constructor":{"prototype":{"polluted":3}}}]}]}',
    );
    validateObject(raw, RootDto);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts exactly {} for a DTO without fields', () => {
    expect(validateObject({}, EmptyDto).violations).toEqual([]);
    expect(pairs(validateObject({ a: 1 }, EmptyDto).violations)).toEqual([['/a', 'invalid_input']]);
  });
});

describe('toInputError (CONTRACT §4: invalid_amount only when every violation is an amount)', () => {
  const violation = fc.record({
    pointer: fc.string({ maxLength: 10 }).map((s) => `/${s}`),
    code: fc.constantFrom<Violation['code']>('invalid_input', 'invalid_amount'),
    detail: fc.string({ minLength: 1, maxLength: 20 }),
  });

  it('picks the code from the kinds of all violations, and keeps them all in order', () => {
    fc.assert(
      fc.property(fc.array(violation, { minLength: 1, maxLength: 20 }), (violations) => {
        const error = toInputError(violations);
        expect(error).toBeInstanceOf(DomainError);
        const allAmounts = !violations.some((v) => v.code === 'invalid_input');
        expect(error.code).toBe(allAmounts ? 'invalid_amount' : 'invalid_input');
        expect(error.violations).toEqual(violations);
        const n = violations.length;
        expect(error.detail).toBe(`${n} violation${n === 1 ? '' : 's'}; first: ${violations[0].pointer} ${violations[0].detail}`);
      }),
    );
  });
});

describe('BodyValidationPipe', () => {
  const pipe = new BodyValidationPipe();

  it('validates a body typed with a DTO and throws the input error', () => {
    expect(pipe.transform(root(), { type: 'body', metatype: RootDto })).toBeInstanceOf(RootDto);
    expect(() => pipe.transform(root({ items: [item({ left: -1 })] }), { type: 'body', metatype: RootDto })).toThrow(
      expect.objectContaining({ code: 'invalid_amount' }),
    );
  });

  it('leaves parameters other than a DTO body untouched', () => {
    const raw = { anything: true };
    expect(pipe.transform(raw, { type: 'param', metatype: RootDto })).toBe(raw);
    expect(pipe.transform(raw, { type: 'body', metatype: Object })).toBe(raw);
    expect(pipe.transform(raw, { type: 'body' })).toBe(raw);
  });
});

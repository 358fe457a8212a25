import 'reflect-metadata';
import fc from 'fast-check';
import { JournalRequestDto } from '../../../modules/journal/api/journal.request.dto';
import { planOf, pointerAt, pointerTo, toInputError, validateObject } from './body-validation.pipe';
import { IsMinorAmountField, IsOneOfField, IsTextField, IsUuidField } from './constraints';
import { Amount, CanonicalId, NestedItems, Optional, Required } from './fields';
import { IsString } from 'class-validator';

class ItemDto {
  @Required()
  @IsTextField(1, 5)
  name: string;

  @Optional(0)
  @Amount()
  @IsMinorAmountField()
  price: number;
}

class BasketDto {
  @Optional('a')
  @IsOneOfField(['a', 'b'])
  kind: string;

  @Required()
  @NestedItems(() => ItemDto)
  @IsTextField(0, 0) // never a string: lets the nested items carry the test
  items: ItemDto[];
}

/** A field checked by class-validator alone (no compiled rule): the pipe's other path. */
class LegacyDto {
  @Required()
  @IsString()
  title: string;

  @Required()
  @CanonicalId()
  @IsUuidField()
  id: string;
}

describe('planOf (the per-class plan)', () => {
  it('is made once per class and kept', () => {
    expect(planOf(BasketDto)).toBe(planOf(BasketDto));
    expect(planOf(ItemDto)).not.toBe(planOf(BasketDto));
  });

  it('lists the fields in declaration order, with the names known for the unknown-field check', () => {
    expect(planOf(BasketDto).fields.map((f) => f.name)).toEqual(['kind', 'items']);
    expect([...planOf(ItemDto).byName.keys()]).toEqual(['name', 'price']);
    expect(planOf(ItemDto).fields[1].meta.amount).toBe(true);
  });

  it('takes the compiled path only when every field has a compiled rule, and names the CanonicalId fields', () => {
    expect(planOf(ItemDto)).toMatchObject({ compiled: true, canonicalIds: [] });
    expect(planOf(LegacyDto)).toMatchObject({ compiled: false, canonicalIds: ['id'] });
  });

  it('refuses a class without declared fields', () => {
    class Nothing {}
    expect(() => planOf(Nothing)).toThrow('Nothing declares no fields');
  });
});

describe('the class-validator path (a class with a field of no compiled rule)', () => {
  it('answers as the compiled path would: one violation per field, in declaration order, ids lower-cased once valid', () => {
    expect(validateObject({ title: 3, id: 'x' }, LegacyDto).violations).toEqual([
      { pointer: '/title', code: 'invalid_input', detail: 'title must be a string' },
      { pointer: '/id', code: 'invalid_input', detail: 'must be a uuid' },
    ]);
    const ok = validateObject({ title: 't', id: '500D9204-EDCC-4FB5-A209-6518960920D6' }, LegacyDto);
    expect(ok.violations).toEqual([]);
    expect(ok.value.id).toBe('500d9204-edcc-4fb5-a209-6518960920d6');
  });
});

describe('pointerAt (a pointer built only when a violation needs it)', () => {
  it('is the parent for the body itself and parent/token for an item', () => {
    expect(pointerAt('', null)).toBe('');
    expect(pointerAt('/lines', 3)).toBe('/lines/3');
    expect(pointerAt('/a~b', 0)).toBe('/a~b/0');
  });
});

describe('pointerTo (RFC 6901)', () => {
  it('escapes ~ as ~0 and / as ~1, in that order', () => {
    expect(pointerTo('', 'a/b~c')).toBe('/a~1b~0c');
    expect(pointerTo('/x', '~1')).toBe('/x/~01');
    expect(pointerTo('/lines', 3)).toBe('/lines/3');
  });

  it('round-trips any key through the RFC 6901 unescaping', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        const token = pointerTo('', key).slice(1);
        expect(token.includes('/')).toBe(false);
        expect(token.replace(/~1/g, '/').replace(/~0/g, '~')).toBe(key);
      }),
    );
  });
});

describe('validateObject', () => {
  it('fills defaults for absent and null optional fields, and never coerces', () => {
    const { value, violations } = validateObject({ name: 'ok', price: null }, ItemDto);
    expect(violations).toEqual([]);
    expect(value).toBeInstanceOf(ItemDto);
    expect({ ...value }).toEqual({ name: 'ok', price: 0 });
    expect(validateObject({ name: 'ok', price: '5' }, ItemDto).violations).toEqual([
      { pointer: '/price', code: 'invalid_amount', detail: 'must be an integer from 0 to 99999999999999' },
    ]);
  });

  it('reports unknown own keys, including __proto__ and constructor', () => {
    const raw = JSON.parse('{"name":"ok","__proto__":{"polluted":true},"constructor":1,"x/y":2}');
    const pointers = validateObject(raw, ItemDto)
      .violations.map((v) => v.pointer)
      .sort();
    expect(pointers).toEqual(['/__proto__', '/constructor', '/x~1y']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('validates nested items at their own pointers, listed after their array, unknown fields first', () => {
    const { violations } = validateObject({ extra: 1, items: [{ name: 'ok' }, 7, { name: '', price: -1 }], kind: 'z' }, BasketDto);
    expect(violations.map((v) => [v.pointer, v.code])).toEqual([
      ['/extra', 'invalid_input'],
      ['/kind', 'invalid_input'],
      ['/items', 'invalid_input'],
      ['/items/1', 'invalid_input'],
      ['/items/2/name', 'invalid_input'],
      ['/items/2/price', 'invalid_amount'],
    ]);
  });

  it('lists violations in the order of the fields, like the contract example', () => {
    const { violations } = validateObject(
      {
        lines: [
          { account_id: 'x', debit_minor: 1 },
          { account_id: 'y', debit_minor: 1.5 },
        ],
        posting_date: 'nope',
      },
      JournalRequestDto,
    );
    expect(violations.map((v) => v.pointer)).toEqual(['/posting_date', '/lines/0/account_id', '/lines/1/account_id', '/lines/1/debit_minor']);
  });

  it('refuses a required null and a non-object', () => {
    expect(validateObject({ name: null }, ItemDto).violations[0]).toMatchObject({ pointer: '/name', code: 'invalid_input' });
    expect(validateObject([], ItemDto).violations).toEqual([{ pointer: '', code: 'invalid_input', detail: 'must be an object' }]);
  });

  it('accepts exactly the integers 0…MAX as prices (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(99999999999999), fc.constant(100000000000000)), (price) => {
        const ok = Number.isInteger(price) && (price as number) >= 0 && (price as number) <= 99999999999999;
        expect(validateObject({ name: 'n', price }, ItemDto).violations.length === 0).toBe(ok);
      }),
    );
  });
});

describe('toInputError (CONTRACT §4)', () => {
  const amount = { pointer: '/a', code: 'invalid_amount' as const, detail: 'd' };
  const input = { pointer: '/b', code: 'invalid_input' as const, detail: 'd' };

  it('is invalid_amount only when every violation is an amount violation', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), (kinds) => {
        const err = toInputError(kinds.map((isAmount) => (isAmount ? amount : input)));
        expect(err.code).toBe(kinds.every(Boolean) ? 'invalid_amount' : 'invalid_input');
        expect(err.violations).toHaveLength(kinds.length);
      }),
    );
  });
});

describe('DTO inheritance', () => {
  class PricedItemDto extends ItemDto {
    @Optional('stk')
    @IsOneOfField(['stk', 'kg'])
    unit: string;
  }

  it('validates the base class fields first, then its own, and still refuses unknown ones', () => {
    expect(validateObject({ name: 'ok', unit: 'kg' }, PricedItemDto).violations).toEqual([]);
    const { violations } = validateObject({ price: -1, unit: 'l', extra: 1 }, PricedItemDto);
    expect(violations.map((v) => v.pointer)).toEqual(['/extra', '/name', '/price', '/unit']);
    expect(validateObject({ name: 'ok', unit: 'kg' }, ItemDto).violations.map((v) => v.pointer)).toEqual(['/unit']);
  });
});

describe('toInputError caps errors[] (CONTRACT §4)', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ pointer: `/lines/${i}/account_id`, code: 'invalid_input' as const, detail: 'is required' }));

  it('lists at most 100 entries, the first ones, and states the total in detail', () => {
    const err = toInputError(many(250));
    expect(err.violations).toHaveLength(100);
    expect(err.violations![0].pointer).toBe('/lines/0/account_id');
    expect(err.violations![99].pointer).toBe('/lines/99/account_id');
    expect(err.detail).toBe('250 violations; first: /lines/0/account_id is required');
  });

  it('lists all of exactly 100', () => {
    const err = toInputError(many(100));
    expect(err.violations).toHaveLength(100);
    expect(err.detail).toBe('100 violations; first: /lines/0/account_id is required');
  });
});

class CanonicalIdDto {
  @Required()
  @IsUuidField()
  @CanonicalId()
  app_id: string;
}

describe('CanonicalId', () => {
  it('lower-cases a valid id', () => {
    const { value, violations } = validateObject({ app_id: 'AAAAAAAA-1111-4111-8111-11111111BBBB' }, CanonicalIdDto);
    expect(violations).toEqual([]);
    expect(value.app_id).toBe('aaaaaaaa-1111-4111-8111-11111111bbbb');
  });

  it('leaves an invalid value and its violation as sent', () => {
    const { violations } = validateObject({ app_id: 'NOT-A-UUID' }, CanonicalIdDto);
    expect(violations).toEqual([{ pointer: '/app_id', code: 'invalid_input', detail: expect.any(String) }]);
  });
});

import { bind, compileSql, empty, join, raw, SqlFragment, sql, StatementTexts } from './sql-template';

describe('sql (the tagged-template builder)', () => {
  it('numbers the values of one fragment from $1, in order', () => {
    const q = sql`SELECT * FROM t WHERE a = ${'x'} AND b = ${2}`.toQuery();
    expect(q.text).toBe('SELECT * FROM t WHERE a = $1 AND b = $2');
    expect(q.values).toEqual(['x', 2]);
  });

  it('numbers nested fragments in place, after the values before them and before those after', () => {
    const inner = sql`SELECT 1 FROM u WHERE u.id = ${'u1'} AND u.n > ${7}`;
    const q = sql`SELECT ${'first'} WHERE EXISTS (${inner}) AND c = ${'last'}`.toQuery();
    expect(q.text).toBe('SELECT $1 WHERE EXISTS (SELECT 1 FROM u WHERE u.id = $2 AND u.n > $3) AND c = $4');
    expect(q.values).toEqual(['first', 'u1', 7, 'last']);
  });

  it('numbers fragments nested three deep and used twice as two sets of parameters', () => {
    const leaf = (v: string) => sql`x = ${v}`;
    const middle = sql`(${leaf('a')} OR ${leaf('b')})`;
    const q = sql`WHERE ${middle} AND ${middle}`.toQuery();
    expect(q.text).toBe('WHERE (x = $1 OR x = $2) AND (x = $3 OR x = $4)');
    expect(q.values).toEqual(['a', 'b', 'a', 'b']);
  });

  it('gives a bound value one number wherever it appears, including inside nested fragments', () => {
    const org = bind('org-1');
    const part = sql`SELECT 1 FROM accounts WHERE organization_id = ${org} AND id = ${'acc'}`;
    const q = sql`WITH a AS (${part}) SELECT ${org}::uuid, ${'z'} FROM a WHERE ${org} IS NOT NULL`.toQuery();
    expect(q.text).toBe('WITH a AS (SELECT 1 FROM accounts WHERE organization_id = $1 AND id = $2) SELECT $1::uuid, $3 FROM a WHERE $1 IS NOT NULL');
    expect(q.values).toEqual(['org-1', 'acc', 'z']);
    expect(q.indexOf(org)).toBe(0);
  });

  it('tells where a bound value sits in the values, so that it can be changed before a rerun', () => {
    const wait = bind('10000');
    const q = sql`SELECT ${'a'}, ${'b'}, set_config('lock_timeout', ${wait}::text, true)`.toQuery();
    expect(q.indexOf(wait)).toBe(2);
    expect(() => q.indexOf(bind('other'))).toThrow(/not part of this statement/);
  });

  it('binds an array as ONE parameter (a PostgreSQL array) and spreads a list only through join', () => {
    const ids = ['a', 'b', 'c'];
    expect(sql`DELETE FROM t WHERE id = ANY(${ids}::uuid[])`.toQuery()).toMatchObject({
      text: 'DELETE FROM t WHERE id = ANY($1::uuid[])',
      values: [['a', 'b', 'c']],
    });
    const q = sql`VALUES ${join(ids.map((id, i) => sql`(${id}, ${i})`))}`.toQuery();
    expect(q.text).toBe('VALUES ($1, $2), ($3, $4), ($5, $6)');
    expect(q.values).toEqual(['a', 0, 'b', 1, 'c', 2]);
  });

  it('joins values and fragments with the separator, and nothing for an empty list', () => {
    expect(join([1, sql`x`, 3], ' AND ').toQuery()).toMatchObject({ text: '$1 AND x AND $2', values: [1, 3] });
    expect(join([]).toQuery()).toMatchObject({ text: '', values: [] });
    expect(join([]).isEmpty).toBe(true);
    expect(sql`a`.isEmpty).toBe(false);
  });

  it('writes raw text as it is, with no parameter, and empty as nothing', () => {
    const q = sql`SELECT ${raw('t.id')} FROM t${empty} WHERE t.x = ${'v'}`.toQuery();
    expect(q).toMatchObject({ text: 'SELECT t.id FROM t WHERE t.x = $1', values: ['v'] });
  });

  it('keeps null and other values as parameters, never as text', () => {
    const at = new Date('2026-11-29T00:00:00Z');
    const q = sql`INSERT INTO t VALUES (${null}, ${at}, ${"'; DROP TABLE t; --"}, ${0}, ${false})`.toQuery();
    expect(q.text).toBe('INSERT INTO t VALUES ($1, $2, $3, $4, $5)');
    expect(q.values).toEqual([null, at, "'; DROP TABLE t; --", 0, false]);
  });

  it('refuses an undefined value (a forgotten field must not become NULL)', () => {
    expect(() => sql`SELECT ${undefined}`.toQuery()).toThrow(TypeError);
    expect(() => bind(undefined)).toThrow(TypeError);
  });

  it('numbers past nine without confusing $1 and $10', () => {
    const values = Array.from({ length: 12 }, (_, i) => `v${i + 1}`);
    const q = sql`SELECT ${join(values)}`.toQuery();
    expect(q.text).toBe('SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12');
    // every placeholder names the value written at its place
    for (const [, n] of q.text.matchAll(/\$(\d+)/g)) expect(q.values[Number(n) - 1]).toBe(`v${n}`);
  });

  it('refuses to become plain text (a fragment in a plain template string would lose its parameters)', () => {
    const part = sql`x = ${1}`;
    expect(() => `WHERE ${part}`).toThrow(TypeError);
    expect(() => 'WHERE ' + part).toThrow(TypeError);
  });

  it('makes the same text for the same shape (a named statement is prepared once per connection)', () => {
    const make = (a: string, b: number) => sql`SELECT ${a}, (${sql`SELECT ${b}`})`.toQuery().text;
    expect(make('x', 1)).toBe(make('y', 2));
  });
});

describe("the statements' texts, written once per shape (issue 47)", () => {
  // write() is the text's concatenation: a statement found again by its pieces does not call it
  const writes = () => jest.spyOn(SqlFragment.prototype as unknown as { write(): string }, 'write');
  afterEach(() => jest.restoreAllMocks());

  it("writes a statement's text once, and gives a statement of the same pieces that text with its own values", () => {
    const make = (id: string, n: number) => sql`SELECT /* once */ ${id}::uuid, ${sql`${n}::int + ${raw('1')}`} FROM ${raw('t')}`.toQuery();
    const write = writes();
    const first = make('a', 1);
    const calls = write.mock.calls.length;
    const second = make('b', 2);
    expect(calls).toBeGreaterThan(0);
    expect(write.mock.calls.length).toBe(calls);
    expect(second).toMatchObject({ text: 'SELECT /* once */ $1::uuid, $2::int + 1 FROM t', values: ['b', 2] });
    expect(first).toMatchObject({ text: second.text, values: ['a', 1] });
  });

  it('tells apart the same strings with a value bound once and with two values, in either order', () => {
    const twice = (a: unknown, b: unknown) => sql`SELECT /* bound */ ${a} AS x, ${b} AS y`.toQuery();
    const org = bind('o');
    expect(twice(org, org)).toMatchObject({ text: 'SELECT /* bound */ $1 AS x, $1 AS y', values: ['o'] });
    expect(twice('o', 'p')).toMatchObject({ text: 'SELECT /* bound */ $1 AS x, $2 AS y', values: ['o', 'p'] });
    const other = bind('q');
    expect(twice(other, other)).toMatchObject({ text: 'SELECT /* bound */ $1 AS x, $1 AS y', values: ['q'] });
    expect(twice(other, other).indexOf(other)).toBe(0);
  });

  it('tells apart raw text, nested fragments and values that make pieces of the same strings', () => {
    const q = (part: unknown) => sql`SELECT /* pieces */ ${part} FROM t`.toQuery();
    expect(q(raw('a'))).toMatchObject({ text: 'SELECT /* pieces */ a FROM t', values: [] });
    expect(q(raw('b'))).toMatchObject({ text: 'SELECT /* pieces */ b FROM t', values: [] });
    expect(q('a')).toMatchObject({ text: 'SELECT /* pieces */ $1 FROM t', values: ['a'] });
    expect(q(sql`${'a'}, ${'b'}`)).toMatchObject({ text: 'SELECT /* pieces */ $1, $2 FROM t', values: ['a', 'b'] });
    expect(q(join([1, 2, 3]))).toMatchObject({ text: 'SELECT /* pieces */ $1, $2, $3 FROM t', values: [1, 2, 3] });
    expect(q(join([1, 2]))).toMatchObject({ text: 'SELECT /* pieces */ $1, $2 FROM t', values: [1, 2] });
  });

  it('still refuses an undefined value, with the text before it, once the shape is known', () => {
    const q = (v: unknown) => sql`UPDATE /* undefined */ t SET a = ${v}`.toQuery();
    expect(q(1).text).toBe('UPDATE /* undefined */ t SET a = $1');
    expect(() => q(undefined)).toThrow('an undefined value for the parameter after: UPDATE /* undefined */ t SET a = ');
  });

  it('adds no node beyond its bound, and finds the nodes it has', () => {
    const texts = new StatementTexts(2);
    const a = texts.step(texts.root, 'a');
    const b = texts.step(a, 1);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(texts.step(b, 'c')).toBeNull();
    expect(texts.step(texts.root, 'x')).toBeNull();
    expect(texts.step(texts.root, 'a')).toBe(a);
    expect(texts.step(a, 1)).toBe(b);
    expect(texts.step(a, '1')).toBeNull();
    expect(texts.step(null, 'a')).toBeNull();
  });
});

describe('compileSql (a statement made once, its values filled per call)', () => {
  it("numbers each slot once wherever it is used, and fills the values in the text's order", () => {
    const compiled = compileSql(
      ['org', 'ids', 'key'] as const,
      (s) => sql`SELECT ${s.key}::text, a.id FROM a WHERE a.org = ${s.org} AND a.id = ANY(${s.ids}::uuid[]) AND b.org = ${s.org}`,
    );
    expect(compiled.text).toBe('SELECT $1::text, a.id FROM a WHERE a.org = $2 AND a.id = ANY($3::uuid[]) AND b.org = $2');
    expect(compiled.values({ org: 'o', ids: ['i1', 'i2'], key: 'k' })).toEqual(['k', 'o', ['i1', 'i2']]);
  });

  it('leaves out a slot the text does not use, and refuses a value that is not a slot', () => {
    const compiled = compileSql(['a', 'unused'] as const, (s) => sql`SELECT ${s.a}`);
    expect(compiled.values({ a: 1, unused: 2 })).toEqual([1]);
    expect(() => compileSql(['a'] as const, (s) => sql`SELECT ${s.a}, ${'fixed'}`)).toThrow(/through its slots only/);
    expect(() => compiled.values({ a: undefined, unused: 2 })).toThrow(TypeError);
  });
});

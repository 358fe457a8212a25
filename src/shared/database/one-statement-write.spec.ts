import { numberedStatement, oneStatement } from './one-statement-write';
import { statementName } from './named-statement-client';

describe('oneStatement', () => {
  const claim = {
    table: 'claims',
    columns: [['k', 'text'], ['n', 'bigint']] as const,
    values: ['key-1', 7],
    conflictColumns: ['k'],
    responseColumn: 'n',
  };
  const row = { table: 'things', columns: [['id', 'uuid'], ['at', 'timestamptz']] as const, values: ['u-1', '2026-01-01T00:00:00.000Z'] };

  it('claims first and inserts every other row only from the claim, each value cast to its column type', () => {
    const { text, values } = oneStatement(claim, [row, { ...row, table: 'others' }]);
    expect(text.replace(/\s+/g, ' ')).toBe(
      'WITH claim AS (INSERT INTO claims (k, n) VALUES ($1::text, $2::bigint) ON CONFLICT (k) DO NOTHING RETURNING 1), ' +
        'r0 AS (INSERT INTO things (id, at) SELECT $3::uuid, $4::timestamptz FROM claim), ' +
        'r1 AS (INSERT INTO others (id, at) SELECT $5::uuid, $6::timestamptz FROM claim) ' +
        'SELECT 1 AS allowed, count(*)::int AS claimed FROM claim',
    );
    expect(values).toEqual(['key-1', 7, 'u-1', '2026-01-01T00:00:00.000Z', 'u-1', '2026-01-01T00:00:00.000Z']);
  });

  it('claims only through the gate when there is one, its parameters numbered first, and reports whether it let the write through', () => {
    const gate = { sql: 'SELECT 1 FROM locks WHERE id = $1 AND until > $2 FOR SHARE', values: ['g-1', 'now'] };
    const { text, values } = oneStatement(claim, [row], gate);
    expect(text.replace(/\s+/g, ' ')).toBe(
      'WITH gate AS (SELECT 1 FROM locks WHERE id = $1 AND until > $2 FOR SHARE), ' +
        'claim AS (INSERT INTO claims (k, n) SELECT $3::text, $4::bigint FROM gate ON CONFLICT (k) DO NOTHING RETURNING 1), ' +
        'r0 AS (INSERT INTO things (id, at) SELECT $5::uuid, $6::timestamptz FROM claim) ' +
        'SELECT (SELECT count(*) FROM gate)::int AS allowed, count(*)::int AS claimed FROM claim',
    );
    expect(values).toEqual(['g-1', 'now', 'key-1', 7, 'u-1', '2026-01-01T00:00:00.000Z']);
  });

  it('refuses a row whose values do not match its columns', () => {
    expect(() => oneStatement(claim, [{ ...row, values: ['u-1'] }])).toThrow('things: 1 values for 2 columns');
  });
});

describe('numberedStatement', () => {
  const claim = {
    table: 'claims',
    columns: [['k', 'text'], ['response', 'jsonb']] as const,
    values: ['key-1', '{"n":0}'],
    conflictColumns: ['k'],
    responseColumn: 'response',
  };
  const step = {
    ctes: 'numbered AS (UPDATE counters SET n = n + 1 WHERE id = $1 AND EXISTS (SELECT 1 FROM {source}) RETURNING n)',
    values: ['c-1'],
    report: '0 AS why',
    responseKey: "voucher_number",
  };
  const row = { table: 'things', columns: [['id', 'uuid']] as const, values: ['u-1'] };

  it('takes the number after the gate, claims with a plain INSERT from it (a committed key aborts the statement), merges the number into the stored response, then the rows', () => {
    const gate = { sql: 'SELECT 1 FROM locks WHERE id = $1 FOR SHARE', values: ['g-1'] };
    const { text, values } = numberedStatement(claim, step, [row], gate);
    expect(text.replace(/\s+/g, ' ')).toBe(
      'WITH gate AS (SELECT 1 FROM locks WHERE id = $1 FOR SHARE), ' +
        'numbered AS (UPDATE counters SET n = n + 1 WHERE id = $2 AND EXISTS (SELECT 1 FROM gate) RETURNING n), ' +
        "claim AS (INSERT INTO claims (k, response) SELECT $3::text, $4::jsonb || jsonb_build_object('voucher_number', numbered.n) FROM numbered RETURNING 1), " +
        'r0 AS (INSERT INTO things (id) SELECT $5::uuid FROM claim) ' +
        'SELECT (SELECT count(*) FROM gate)::int AS allowed, (SELECT n FROM numbered) AS n, 0 AS why',
    );
    expect(values).toEqual(['g-1', 'c-1', 'key-1', '{"n":0}', 'u-1']);
  });

  it('reads one constant row as its source when there is no gate', () => {
    const { text } = numberedStatement(claim, step, [], null);
    expect(text).toContain('EXISTS (SELECT 1 FROM (VALUES (1)) AS source(one))');
    expect(text).toContain('SELECT 1 AS allowed, (SELECT n FROM numbered) AS n, 0 AS why');
  });
});

describe('statementName', () => {
  it('names the same text the same way every time, and different texts differently', () => {
    const a = statementName('SELECT $1::int -- spec a');
    const b = statementName('SELECT $1::int -- spec b');
    expect(a).toMatch(/^s\d+$/);
    expect(statementName('SELECT $1::int -- spec a')).toBe(a);
    expect(b).not.toBe(a);
  });

  it('stops naming once 512 texts are known, so generated SQL cannot grow the map without bound', () => {
    let last: string | null = '';
    for (let i = 0; i < 600; i++) last = statementName(`SELECT ${i} -- bound`);
    expect(last).toBeNull();
  });
});

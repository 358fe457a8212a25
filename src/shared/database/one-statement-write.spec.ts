import type { StatementGate } from '../domain/row-insert';
import { DatabaseUnavailableError, LockTimeoutError } from '../domain/errors';
import { numberedStatement, OneStatementWrite, oneStatement } from './one-statement-write';
import type { Sql } from './sql';
import { statementName } from '../performance/named-statement-client';
import { raw, sql, type SqlFragment } from './sql-template';

describe('oneStatement', () => {
  const claim = {
    table: 'claims',
    columns: [
      ['k', 'text'],
      ['n', 'bigint'],
    ] as const,
    values: ['key-1', 7],
    conflictColumns: ['k'],
    responseColumn: 'n',
  };
  const row = {
    table: 'things',
    columns: [
      ['id', 'uuid'],
      ['at', 'timestamptz'],
    ] as const,
    values: ['u-1', '2026-01-01T00:00:00.000Z'],
  };

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

  it('writes an undefined value as NULL and a one-column row, the same text on every call', () => {
    const one = { table: 'singles', columns: [['only', 'text']] as const, values: [undefined] };
    const first = oneStatement(claim, [one]);
    expect(first.text.replace(/\s+/g, ' ')).toBe(
      'WITH claim AS (INSERT INTO claims (k, n) VALUES ($1::text, $2::bigint) ON CONFLICT (k) DO NOTHING RETURNING 1), ' +
        'r0 AS (INSERT INTO singles (only) SELECT $3::text FROM claim) ' +
        'SELECT 1 AS allowed, count(*)::int AS claimed FROM claim',
    );
    expect(first.values).toEqual(['key-1', 7, null]);
    const again = oneStatement({ ...claim, values: ['key-2', 8] }, [{ ...one, values: ['x'] }]);
    expect(again).toEqual({ text: first.text, values: ['key-2', 8, 'x'] });
  });

  it('claims only through the gate when there is one, its parameters numbered first, and reports whether it let the write through', () => {
    const gate = { sql: () => sql`SELECT 1 FROM locks WHERE id = ${'g-1'} AND until > ${'now'} FOR SHARE` };
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
    columns: [
      ['k', 'text'],
      ['response', 'jsonb'],
    ] as const,
    values: ['key-1', '{"n":0}'],
    conflictColumns: ['k'],
    responseColumn: 'response',
  };
  const step = {
    ctes: (source: SqlFragment) => sql`numbered AS (UPDATE counters SET n = n + 1 WHERE id = ${'c-1'} AND EXISTS (SELECT 1 FROM ${source}) RETURNING n)`,
    report: raw('0 AS why'),
    responseKey: 'voucher_number',
  };
  const row = { table: 'things', columns: [['id', 'uuid']] as const, values: ['u-1'] };

  it('takes the number after the gate, claims with a plain INSERT from it (a committed key aborts the statement), merges the number into the stored response, then the rows', () => {
    const gate = { sql: () => sql`SELECT 1 FROM locks WHERE id = ${'g-1'} FOR SHARE` };
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

/** The claim of a numbered write under `key`. */
const claimOf = (key: string) => ({
  table: 'claims',
  columns: [
    ['k', 'text'],
    ['response', 'jsonb'],
  ] as const,
  values: [key, '{}'],
  conflictColumns: ['k'],
  responseColumn: 'response',
});

describe('OneStatementWrite.runNumbered, writes of one lane', () => {
  const step = {
    ctes: () => sql`numbered AS (UPDATE counters SET n = n + 1 WHERE id = ${'c-1'} RETURNING n)`,
    report: raw('0 AS closed'),
    responseKey: 'n',
    lane: 'counter c-1',
    refusal: () => new Error('closed'),
  };
  const keyOf = (values: unknown[]) => values[1] as string;

  /**
   * A fake Sql that holds the first statement outside a session until released, so that the writes
   * submitted meanwhile queue; `answer` decides each statement's result (or throws) from its key.
   */
  function fakeSql(answer: (key: string, inSession: boolean) => Record<string, unknown>, commit: () => void = () => undefined) {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first = true;
    const sql = {
      async query(_text: string, values: unknown[]) {
        log.push(`alone ${keyOf(values)}`);
        if (first) {
          first = false;
          await held;
        }
        return [answer(keyOf(values), false)];
      },
      async session<T>(work: (q: (text: string, values?: unknown[]) => Promise<unknown[]>) => Promise<T>): Promise<T> {
        return work(async (text, values) => {
          if (!values) {
            log.push(text);
            if (text === 'COMMIT') commit();
            return [];
          }
          log.push(`in batch ${keyOf(values)}`);
          return [answer(keyOf(values), true)];
        });
      },
    };
    return { write: new OneStatementWrite(sql as unknown as Sql), log, release };
  }

  function submit(write: OneStatementWrite, keys: string[], gate: StatementGate | null = null) {
    return keys.map((key) => write.runNumbered(claimOf(key), step, [], gate));
  }

  it('runs the first write alone and the writes that came meanwhile as one transaction, each with its own number', async () => {
    let n = 0;
    const { write, log, release } = fakeSql(() => ({ allowed: 1, n: ++n, closed: 0 }));
    const answers = submit(write, ['a', 'b', 'c']);
    release();
    await expect(Promise.all(answers)).resolves.toEqual([1, 2, 3]);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch c', 'COMMIT']);
  });

  it('answers a refused write of a batch with its refusal, after the others committed', async () => {
    let n = 0;
    const gate: StatementGate = {
      sql: () => sql`SELECT 1`,
      refusal: async () => new Error('revoked'),
      failure: async () => null,
    };
    const { write, log, release } = fakeSql((key) => (key === 'b' ? { allowed: 0, n: null, closed: 0 } : { allowed: 1, n: ++n, closed: 0 }));
    const [a, b, c] = submit(write, ['a', 'b', 'c'], gate);
    release();
    await expect(a).resolves.toBe(1);
    await expect(b).rejects.toThrow('revoked');
    await expect(c).resolves.toBe(2);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch c', 'COMMIT']);
  });

  it('rolls a batch back when a statement fails and runs each of its writes again alone: a key claimed within the batch is answered from its record (null)', async () => {
    let n = 0;
    // keys committed alone, and keys claimed by the batch's transaction (rolled back with it)
    const committed = new Set<string>();
    const inBatch = new Set<string>();
    const { write, log, release } = fakeSql((key, inSession) => {
      const claimed = inSession ? inBatch : committed;
      if (claimed.has(key) || committed.has(key)) throw Object.assign(new Error('duplicate key'), { code: '23505', table: 'claims' });
      claimed.add(key);
      return { allowed: 1, n: ++n, closed: 0 };
    });
    const answers = submit(write, ['a', 'b', 'b']);
    release();
    const [a, b1, b2] = await Promise.all(answers);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch b', 'ROLLBACK', 'alone b', 'alone b']);
    expect(a).toBe(1);
    // the batch's numbers were rolled back; alone, one of the two takes the key and the other finds it taken
    expect([b1, b2].filter((x) => x === null)).toHaveLength(1);
  });

  it('answers the write whose lock wait ran out with it (409-bound when it waited on its own key) and runs the others alone', async () => {
    let n = 0;
    const { write, log, release } = fakeSql((key, inSession) => {
      if (key === 'c' && inSession) throw new LockTimeoutError({ where: 'while inserting index tuple (0,1) in relation "claims"' });
      return { allowed: 1, n: ++n, closed: 0 };
    });
    const [a, b, c] = submit(write, ['a', 'b', 'c']);
    release();
    await expect(a).resolves.toBe(1);
    await expect(c).rejects.toMatchObject({ onClaim: true });
    await expect(b).resolves.toBe(3);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch c', 'ROLLBACK', 'alone b']);
  });

  it("tells a row it was committed only after its write's statement or its batch's COMMIT, never for a refused, rolled-back or failed write", async () => {
    let n = 0;
    const told: string[] = [];
    let committedAt = -1;
    const { write, log, release } = fakeSql(
      (key) => (key === 'b' ? { allowed: 0, n: null, closed: 0 } : { allowed: 1, n: ++n, closed: 0 }),
      () => (committedAt = told.length),
    );
    const gate: StatementGate = { sql: () => sql`SELECT 1`, refusal: async () => new Error('revoked'), failure: async () => null };
    const row = (key: string) => ({ table: 'outbox', columns: [['k', 'text']] as const, values: [key], committed: () => told.push(key) });
    const answers = ['a', 'b', 'c'].map((key) => write.runNumbered(claimOf(key), step, [row(key)], gate));
    release();
    const settledAnswers = await Promise.allSettled(answers);
    expect(settledAnswers.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch c', 'COMMIT']);
    expect(told.sort()).toEqual(['a', 'c']);
    expect(committedAt).toBe(1); // c was told after the batch's COMMIT (a, alone, before it)
  });

  it('answers every write of a batch whose COMMIT failed with that failure and runs none of them again', async () => {
    let n = 0;
    const { write, log, release } = fakeSql(
      () => ({ allowed: 1, n: ++n, closed: 0 }),
      () => {
        throw new DatabaseUnavailableError(new Error('connection lost at commit'));
      },
    );
    const [a, b, c] = submit(write, ['a', 'b', 'c']);
    release();
    await expect(a).resolves.toBe(1);
    await expect(b).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(c).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(log).toEqual(['alone a', 'BEGIN', 'in batch b', 'in batch c', 'COMMIT']);
  });
});

describe('OneStatementWrite.runNumbered with a counter lock (CONTRACT §8, §3)', () => {
  const claim = claimOf;
  const step = {
    ctes: (source: SqlFragment) => sql`numbered AS (UPDATE counters SET n = n + 1 WHERE id = ${'c-1'} AND EXISTS (SELECT 1 FROM ${source}) RETURNING n)`,
    report: raw('0 AS closed'),
    responseKey: 'n',
    lane: 'counter c-1',
    counterLock: { names: ['counters c-1'], rows: (lockTimeout: SqlFragment) => sql`SELECT 1 FROM counters WHERE id = ${'c-1'} AND ${lockTimeout} FOR UPDATE` },
    refusal: () => new Error('closed'),
  };
  const gate = (failure: Error | null): StatementGate => ({
    sql: (after: SqlFragment) => sql`SELECT 1 FROM grants WHERE id = ${'g-1'} AND ${after} FOR SHARE`,
    refusal: async () => failure ?? new Error('refused'),
    failure: async () => failure,
  });

  it("locks the counter first and the gate's rows only after it, with the lock wait set in the same statement", () => {
    const { text, values, lockTimeoutAt } = numberedStatement(claim('k'), step, [], gate(null));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toMatch(
      /^WITH counter_lock AS \(SELECT count\(\*\) AS locked FROM \(SELECT 1 FROM counters WHERE id = \$1 AND set_config\('lock_timeout', \$2::text, true\) IS NOT NULL FOR UPDATE\) AS counter WHERE \(SELECT count\(\*\) FROM \(SELECT pg_advisory_xact_lock\(k\) FROM \(SELECT hashtextextended\(t, 0\) AS k FROM unnest\(\$3::text\[\]\) AS t WHERE set_config\('lock_timeout', \$2::text, true\) IS NOT NULL ORDER BY k\) AS ordered\) AS held\) IS NOT NULL\), gate AS \(SELECT 1 FROM grants WHERE id = \$4 AND \(SELECT locked FROM counter_lock\) IS NOT NULL FOR SHARE\),/,
    );
    expect(values.slice(0, 4)).toEqual(['c-1', '10000', ['counters c-1'], 'g-1']);
    expect(lockTimeoutAt).toBe(1);
  });

  it('gives a write run again alone after its batch failed only what is left of its one lock timeout', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      const seen: Array<{ key: string; lockTimeout: string; alone: boolean }> = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let first = true;
      let n = 0;
      const record = (values: unknown[], alone: boolean) => seen.push({ key: values[4] as string, lockTimeout: values[1] as string, alone });
      const sql = {
        async query(_text: string, values: unknown[]) {
          record(values, true);
          if (first) {
            first = false;
            await held;
          }
          return [{ allowed: 1, n: ++n, closed: 0 }];
        },
        async session<T>(work: (q: (text: string, values?: unknown[]) => Promise<unknown[]>) => Promise<T>): Promise<T> {
          return work(async (_text, values) => {
            if (!values) return [];
            record(values, false);
            // the batch's statement waited 9 s on another lock, then ran out
            now.mockReturnValue(1_009_000);
            throw new LockTimeoutError({ where: 'while locking tuple (0,1) in relation "periods"' });
          });
        },
      };
      const write = new OneStatementWrite(sql as unknown as Sql);
      const answers = ['a', 'b', 'c'].map((key) => write.runNumbered(claim(key), step, []));
      release();
      await expect(answers[0]).resolves.toBe(1);
      await expect(answers[1]).rejects.toBeInstanceOf(LockTimeoutError);
      await expect(answers[2]).resolves.toBe(2);
      expect(seen.filter((s) => !s.alone).map((s) => s.lockTimeout)).toEqual(['10000']);
      expect(seen.filter((s) => s.alone && s.key === 'c').map((s) => s.lockTimeout)).toEqual(['1000']);
    } finally {
      now.mockRestore();
    }
  });

  it("answers a write whose lock wait ran out with the gate's failure when it is no longer allowed (403, not 503)", async () => {
    const sql = {
      async query() {
        throw new LockTimeoutError({ where: 'while locking tuple (0,1) in relation "counters"' });
      },
    };
    const write = new OneStatementWrite(sql as unknown as Sql);
    await expect(write.runNumbered(claim('a'), { ...step, lane: undefined }, [], gate(new Error('grant revoked')))).rejects.toThrow('grant revoked');
    await expect(write.runNumbered(claim('b'), { ...step, lane: undefined }, [], gate(null))).rejects.toBeInstanceOf(LockTimeoutError);
  });
});

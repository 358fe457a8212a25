import { commitOrderedRead, RUNNING_ELSEWHERE } from './commit-order.sql';
import type { Sql } from './sql';

/**
 * commitOrderedRead's control flow over a scripted database: what it asks, in order, and what it returns.
 * Whether PostgreSQL's answers make a list that never shrinks is test/e2e/journal-entries.e2e-spec.ts's.
 */
describe('commitOrderedRead', () => {
  // a compiled statement whose values are its slots' in the order given, `elsewhere` last
  const PAGE_TEXT = 'the page statement';
  const PAGE = { text: PAGE_TEXT, values: ({ elsewhere, ...rest }: Record<string, unknown>) => [...Object.values(rest), elsewhere] };
  const row = (xid: string | null, uncertain: boolean) => ({ xid, id: xid === null ? null : `row-${xid}`, uncertain });

  function scripted(answers: Array<Array<ReturnType<typeof row>> | Array<{ xids: string }>>) {
    const asked: Array<[string, unknown[]]> = [];
    const sql = {
      query: async (text: string, values: unknown[]) => {
        asked.push([text, values]);
        const answer = answers.shift();
        if (!answer) throw new Error(`unexpected statement ${text}`);
        return answer;
      },
    } as unknown as Sql;
    return { sql, asked };
  }

  it('reads once when the horizon is certain, with no list of other databases', async () => {
    const { sql, asked } = scripted([[row('7', false), row('9', false)]]);
    expect((await commitOrderedRead(sql, PAGE, { a: 'a', n: 1 })).map((r) => r.xid)).toEqual(['7', '9']);
    expect(asked).toEqual([[PAGE_TEXT, ['a', 1, null]]]);
  });

  it('answers an empty page (its one row of nulls) with no rows', async () => {
    const { sql } = scripted([[row(null, false)]]);
    expect(await commitOrderedRead(sql, PAGE, {})).toEqual([]);
  });

  it('reads again while uncertain, and after three uncertain reads reads the other databases first and takes that read', async () => {
    const { sql, asked } = scripted([[row('5', true)], [row(null, true)], [row('5', true)], [{ xids: '{11,12}' }], [row('5', true), row('6', true)]]);
    expect((await commitOrderedRead(sql, PAGE, { a: 'a' })).map((r) => r.xid)).toEqual(['5', '6']);
    expect(asked).toEqual([
      [PAGE_TEXT, ['a', null]],
      [PAGE_TEXT, ['a', null]],
      [PAGE_TEXT, ['a', null]],
      [RUNNING_ELSEWHERE, []],
      [PAGE_TEXT, ['a', '{11,12}']],
    ]);
  });

  it('takes the first certain read after uncertain ones', async () => {
    const { sql, asked } = scripted([[row('5', true)], [row('5', false), row('8', false)]]);
    expect((await commitOrderedRead(sql, PAGE, {})).map((r) => r.xid)).toEqual(['5', '8']);
    expect(asked).toHaveLength(2);
  });
});

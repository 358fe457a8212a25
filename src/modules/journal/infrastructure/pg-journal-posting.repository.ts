import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { bind, type Bound, empty, join, raw, sql, type SqlFragment } from '../../../shared/database/sql-template';
import type { NumberedStep } from '../../../shared/domain/row-insert';
import { AppsSql } from '../../auth/apps/sql';
import { EntryAlreadyReversedError, JournalPostingRepository, type NewJournalEntry, PeriodLockedError } from '../domain/journal-posting';

/** The partial unique index that lets an entry be reversed once (migration 1766640000000). */
const REVERSED_ONCE = 'journal_entries_reverses_key';

@Injectable()
export class PgJournalPostingRepository extends JournalPostingRepository {
  numberedEntry(e: NewJournalEntry): NumberedStep {
    return this.numbered([e], false);
  }

  numberedEntries(entries: readonly NewJournalEntry[]): NumberedStep {
    return this.numbered(entries, true);
  }

  /**
   * One or more entries (of one organization, caller and operation) as the numbered step of a
   * one-statement write: the years' voucher counters locked first (counterLock: their advisory locks, then their rows), then
   * every period row of the entries locked FOR SHARE and open (created if this is the month's first
   * posting: a close then waits for this write), then each year's next voucher numbers, consecutive in
   * input order, the entries and their lines. Nothing is numbered when any period is closed; when a
   * period row was created by a transaction that committed after the statement began, the statement
   * cannot see it and is run again. The step's number is the first entry's.
   */
  private numbered(entries: readonly NewJournalEntry[], listEntries: boolean): NumberedStep {
    const [first] = entries;
    const periods = [...new Set(entries.map((e) => e.period))].sort();
    const counts = new Map<number, number>();
    // each entry's place among the entries of its year (1-based), in input order
    const ordinals = entries.map((e) => {
      const n = (counts.get(e.voucherYear) ?? 0) + 1;
      counts.set(e.voucherYear, n);
      return n;
    });
    // how many entries of its year come after it: its number is the year's new last number less that
    const behind = entries.map((e, i) => counts.get(e.voucherYear)! - ordinals[i]);
    const years = [...counts.keys()].sort((a, b) => a - b);
    const lines = entries.flatMap((e) => e.input.lines.map((l, i) => ({ entryId: e.id, lineNo: i + 1, l })));
    // One entry (every POST /journal) binds each per-entry value as itself, several bind arrays that are
    // unnested: the same statement, but the single posting's is as cheap to plan and run as before batches.
    const one = entries.length === 1;
    const perEntry = <T>(values: T[]): Bound => bind(one ? values[0] : values);
    /** Rows of the per-entry parameters `params` ([value, type]), as `alias(columns…)`, with their place `i` when asked. */
    const rows = (params: Array<[Bound, string]>, alias: string, columns: string, place = false): SqlFragment => {
      const as = raw(`AS ${alias}(${columns}${place ? ', i' : ''})`);
      return one
        ? sql`(SELECT ${join(params.map(([v, t]) => sql`${v}::${raw(t)}`))}${raw(place ? ', 1' : '')}) ${as}`
        : sql`unnest(${join(params.map(([v, t]) => sql`${v}::${raw(t)}[]`))})${raw(place ? ' WITH ORDINALITY' : '')} ${as}`;
    };
    const firstOf = (v: Bound, t: string): SqlFragment => (one ? sql`${v}::${raw(t)}` : sql`(${v}::${raw(t)}[])[1]`);
    const anyOf = (v: Bound, t: string): SqlFragment => (one ? sql`= ${v}::${raw(t)}` : sql`= ANY(${v}::${raw(t)}[])`);
    // each value is one parameter wherever the statement uses it
    const organizationId = bind(first.organizationId);
    const appId = bind(first.appId);
    const periodsOf = perEntry(periods);
    const ids = perEntry(entries.map((e) => e.id));
    const voucherYears = perEntry(entries.map((e) => e.voucherYear));
    const behindOf = perEntry(behind);
    // the numbered entries as the response lists them (CONTRACT §19 batch), only when asked for
    const listed = listEntries
      ? sql`, (SELECT jsonb_agg(jsonb_build_object('id', x.id, 'voucher_year', x.year, 'voucher_number', s.last_number - x.behind) ORDER BY x.i)
            FROM ${rows(
              [
                [ids, 'uuid'],
                [voucherYears, 'int'],
                [behindOf, 'int'],
              ],
              'x',
              'id, year, behind',
              true,
            )}
            JOIN numbered_years s ON s.year = x.year) AS entries`
      : empty;
    let entriesOfStatement: unknown = null;
    return {
      ctes: (source) => sql`period_new AS (
         INSERT INTO periods (organization_id, period) SELECT ${organizationId}, p.period FROM ${source}, ${rows([[periodsOf, 'text']], 'p', 'period')}
         ON CONFLICT (organization_id, period) DO NOTHING RETURNING period),
       period_old AS (SELECT period, closed_at FROM periods WHERE organization_id = ${organizationId} AND period ${anyOf(periodsOf, 'text')} FOR SHARE),
       numbered_years AS (
         INSERT INTO voucher_counters (organization_id, year, last_number)
         SELECT ${organizationId}, y.year, y.count FROM ${source}, ${rows(
           [
             [perEntry(years), 'int'],
             [perEntry(years.map((y) => counts.get(y))), 'int'],
           ],
           'y',
           'year, count',
         )}
          WHERE (SELECT count(*) FROM period_new) + (SELECT count(*) FROM period_old WHERE closed_at IS NULL) = ${raw(String(periods.length))}
         ON CONFLICT (organization_id, year) DO UPDATE SET last_number = voucher_counters.last_number + EXCLUDED.last_number
         RETURNING year, last_number),
       numbered AS (SELECT s.last_number - ${firstOf(behindOf, 'int')} AS n${listed} FROM numbered_years s WHERE s.year = ${firstOf(voucherYears, 'int')}),
       entry AS (
         INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date,
           transaction_date, document_date, description, currency, app_id, app_name, grant_id, operation_id, created_at, reverses)
         SELECT ${organizationId}, x.id, ${first.environment}, x.year, s.last_number - x.behind, x.posting_date, x.transaction_date, x.document_date,
                x.description, x.currency, ${appId}, (${AppsSql.nameOf(appId)}), ${first.grantId}, ${first.operationId}, ${first.createdAt}, x.reverses
           FROM ${rows(
             [
               [ids, 'uuid'],
               [voucherYears, 'int'],
               [behindOf, 'int'],
               [perEntry(entries.map((e) => e.input.posting_date)), 'date'],
               [perEntry(entries.map((e) => e.input.transaction_date)), 'date'],
               [perEntry(entries.map((e) => e.input.document_date)), 'date'],
               [perEntry(entries.map((e) => e.input.description)), 'text'],
               [perEntry(entries.map((e) => e.input.currency)), 'text'],
               [perEntry(entries.map((e) => e.reverses)), 'uuid'],
             ],
             'x',
             'id, year, behind, posting_date, transaction_date, document_date, description, currency, reverses',
           )}
           JOIN numbered_years s ON s.year = x.year
         RETURNING 1),
       line AS (
         INSERT INTO journal_lines (organization_id, entry_id, line_no, account_id, debit_minor, credit_minor,
           tax_code_id, dimension_refs, line_text)
         SELECT ${organizationId}, l.entry_id, l.line_no, l.account_id, l.debit_minor, l.credit_minor, l.tax_code_id, l.dimension_refs, l.line_text
           FROM unnest(${lines.map((x) => x.entryId)}::uuid[], ${lines.map((x) => x.lineNo)}::int[],
                       ${lines.map((x) => x.l.account_id.toLowerCase())}::uuid[],
                       ${lines.map((x) => String(x.l.debit_minor))}::bigint[], ${lines.map((x) => String(x.l.credit_minor))}::bigint[],
                       ${lines.map((x) => (x.l.tax_code_id ? x.l.tax_code_id.toLowerCase() : null))}::uuid[],
                       ${lines.map((x) => JSON.stringify(x.l.dimension_refs))}::jsonb[], ${lines.map((x) => x.l.line_text)}::text[])
             AS l(entry_id, line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text)
          WHERE EXISTS (SELECT 1 FROM entry))`,
      report: raw(
        `(SELECT array_agg(period) FROM period_old WHERE closed_at IS NOT NULL) AS closed_periods${listEntries ? ', (SELECT entries FROM numbered) AS entries' : ''}`,
      ),
      // the years' counters are locked before the gate locks grant and mandate (CONTRACT §8: a revocation
      // never waits for a posting that waits for a counter); absent before a year's first posting
      counterLock: {
        names: years.map((year) => `voucher_counters ${first.organizationId} ${year}`),
        rows: (lockTimeout) =>
          sql`SELECT 1 FROM voucher_counters WHERE organization_id = ${first.organizationId} AND year ${anyOf(perEntry(years), 'int')} AND ${lockTimeout} ORDER BY year FOR UPDATE`,
      },
      responseKey: 'voucher_number',
      ...(listEntries && {
        response: {
          sql: raw(`jsonb_build_object('entries', numbered.entries)`),
          complete: (body: Record<string, unknown>) => ({ ...body, entries: entriesOfStatement }),
        },
        decided: (result: Record<string, unknown>) => {
          entriesOfStatement = result.entries;
        },
      }),
      // one voucher counter per organization and year
      lane: years.length === 1 ? `${first.organizationId}/${years[0]}` : undefined,
      refusal: (result) => {
        const closed = new Set((result.closed_periods as string[] | null) ?? []);
        // the first journal, in input order, whose period is closed (CONTRACT §19: checked per journal)
        const locked = entries.find((e) => closed.has(e.period));
        return locked ? new PeriodLockedError(locked.period) : 'retry';
      },
      uniqueViolation: (constraint) => (constraint === REVERSED_ONCE ? new EntryAlreadyReversedError() : null),
    };
  }

  async closePeriod(m: EntityManager, organizationId: string, period: string): Promise<void> {
    // The upsert's row lock waits for postings holding the period's SHARE lock; clock_timestamp() in
    // SET is read after that wait, so closed_at is later than every posting that got in before it.
    await m.query(
      `INSERT INTO periods (organization_id, period, closed_at) VALUES ($1, $2, clock_timestamp())
       ON CONFLICT (organization_id, period) DO UPDATE SET closed_at = COALESCE(periods.closed_at, clock_timestamp())`,
      [organizationId, period],
    );
  }
}

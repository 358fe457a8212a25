import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NumberedStep } from '../../../shared/domain/row-insert';
import { JournalPostingRepository, type NewJournalEntry, PeriodLockedError } from '../domain/journal-posting';

@Injectable()
export class TypeOrmJournalPostingRepository extends JournalPostingRepository {
  /**
   * The entry as the numbered step of a one-statement write: the year's voucher counter locked first
   * (counterLock), then the period row locked FOR SHARE and
   * open (created if this is the month's first posting: a close then waits for this write), then the
   * year's next voucher number, the entry and its lines. Nothing is numbered when the period is
   * closed; when the period row was created by a transaction that committed after the statement
   * began, the statement cannot see it and is run again.
   */
  numberedEntry(e: NewJournalEntry, period: string): NumberedStep {
    const lines = e.input.lines;
    return {
      ctes: `period_new AS (
         INSERT INTO periods (organization_id, period) SELECT $1, $13 FROM {source}
         ON CONFLICT (organization_id, period) DO NOTHING RETURNING 1),
       period_old AS (SELECT closed_at FROM periods WHERE organization_id = $1 AND period = $13 FOR SHARE),
       numbered AS (
         INSERT INTO voucher_counters (organization_id, year, last_number)
         SELECT $1, $4, 1 FROM {source}
          WHERE EXISTS (SELECT 1 FROM period_new) OR EXISTS (SELECT 1 FROM period_old WHERE closed_at IS NULL)
         ON CONFLICT (organization_id, year) DO UPDATE SET last_number = voucher_counters.last_number + 1
         RETURNING last_number AS n),
       entry AS (
         INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date,
           transaction_date, document_date, description, currency, app_id, operation_id, created_at)
         SELECT $1, $2, $3, $4, numbered.n, $5, $6, $7, $8, $9, $10, $11, $12 FROM numbered
         RETURNING 1),
       line AS (
         INSERT INTO journal_lines (organization_id, entry_id, line_no, account_id, debit_minor, credit_minor,
           tax_code_id, dimension_refs, line_text)
         SELECT $1, $2, l.line_no, l.account_id, l.debit_minor, l.credit_minor, l.tax_code_id, l.dimension_refs, l.line_text
           FROM entry, unnest($14::int[], $15::uuid[], $16::bigint[], $17::bigint[], $18::uuid[], $19::jsonb[], $20::text[])
             AS l(line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text))`,
      values: [
        e.organizationId, e.id, e.environment, e.voucherYear, e.input.posting_date,
        e.input.transaction_date, e.input.document_date, e.input.description, e.input.currency, e.appId, e.operationId, e.createdAt,
        period,
        lines.map((_, i) => i + 1),
        lines.map((l) => l.account_id.toLowerCase()),
        lines.map((l) => String(l.debit_minor)),
        lines.map((l) => String(l.credit_minor)),
        lines.map((l) => (l.tax_code_id ? l.tax_code_id.toLowerCase() : null)),
        lines.map((l) => JSON.stringify(l.dimension_refs)),
        lines.map((l) => l.line_text),
      ],
      report: `(SELECT count(*) FROM period_old WHERE closed_at IS NOT NULL)::int AS period_closed`,
      // the year's counter is locked before the gate locks grant and mandate (CONTRACT §8: a revocation
      // never waits for a posting that waits for the counter); absent before the year's first posting
      counterLock: {
        sql: `SELECT 1 FROM voucher_counters WHERE organization_id = $1 AND year = $2 AND {lock_timeout} FOR UPDATE`,
        values: [e.organizationId, e.voucherYear],
      },
      responseKey: 'voucher_number',
      // one voucher counter per organization and year
      lane: `${e.organizationId}/${e.voucherYear}`,
      refusal: (result) => (result.period_closed ? new PeriodLockedError(period) : 'retry'),
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

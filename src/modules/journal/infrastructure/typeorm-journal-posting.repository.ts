import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JournalPostingRepository, type NewJournalEntry } from '../domain/journal-posting';

@Injectable()
export class TypeOrmJournalPostingRepository extends JournalPostingRepository {
  async lockOpenPeriod(m: EntityManager, organizationId: string, period: string): Promise<boolean> {
    const select = () =>
      m.query<Array<{ closed_at: Date | null }>>(`SELECT closed_at FROM periods WHERE organization_id = $1 AND period = $2 FOR SHARE`, [organizationId, period]);
    let rows = await select();
    if (rows.length === 0) {
      // first posting of the month: create the row (a concurrent creator makes this wait, then do nothing)
      await m.query(`INSERT INTO periods (organization_id, period) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [organizationId, period]);
      rows = await select();
    }
    return rows[0]?.closed_at === null;
  }

  async insertEntryWithNextVoucher(m: EntityManager, e: NewJournalEntry): Promise<number> {
    const lines = e.input.lines;
    const rows: Array<{ voucher_number: number }> = await m.query(
      `WITH voucher AS (
         INSERT INTO voucher_counters (organization_id, year, last_number) VALUES ($1, $4, 1)
         ON CONFLICT (organization_id, year) DO UPDATE SET last_number = voucher_counters.last_number + 1
         RETURNING last_number),
       entry AS (
         INSERT INTO journal_entries (organization_id, id, environment, voucher_year, voucher_number, posting_date,
           transaction_date, document_date, description, currency, app_id, operation_id, created_at)
         SELECT $1, $2, $3, $4, voucher.last_number, $5, $6, $7, $8, $9, $10, $11, $12 FROM voucher
         RETURNING voucher_number),
       line AS (
         INSERT INTO journal_lines (organization_id, entry_id, line_no, account_id, debit_minor, credit_minor,
           tax_code_id, dimension_refs, line_text)
         SELECT $1, $2, l.line_no, l.account_id, l.debit_minor, l.credit_minor, l.tax_code_id, l.dimension_refs, l.line_text
           FROM unnest($13::int[], $14::uuid[], $15::bigint[], $16::bigint[], $17::uuid[], $18::jsonb[], $19::text[])
             AS l(line_no, account_id, debit_minor, credit_minor, tax_code_id, dimension_refs, line_text))
       SELECT voucher_number FROM entry`,
      [
        e.organizationId, e.id, e.environment, e.voucherYear, e.input.posting_date,
        e.input.transaction_date, e.input.document_date, e.input.description, e.input.currency, e.appId, e.operationId, e.createdAt,
        lines.map((_, i) => i + 1),
        lines.map((l) => l.account_id.toLowerCase()),
        lines.map((l) => String(l.debit_minor)),
        lines.map((l) => String(l.credit_minor)),
        lines.map((l) => (l.tax_code_id ? l.tax_code_id.toLowerCase() : null)),
        lines.map((l) => JSON.stringify(l.dimension_refs)),
        lines.map((l) => l.line_text),
      ],
    );
    return rows[0].voucher_number;
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

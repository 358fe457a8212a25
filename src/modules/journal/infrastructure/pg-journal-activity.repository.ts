import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrganizationsSql } from '../../auth/organizations/sql';
import { EntryAttachmentsSql } from '../domain/entry-attachments.sql';
import { type ActivityEntry, type ActivityLine, JournalActivityRepository } from '../domain/journal-activity';

/** The attachments' JSON (EntryAttachmentsSql.attachmentsOf) as the page needs them. */
function filesOf(json: unknown): { attachments: number; files: Array<{ id: string; filename: string }> } {
  const list = (typeof json === 'string' ? JSON.parse(json) : (json ?? [])) as Array<{ id: string; filename: string }>;
  return { attachments: list.length, files: list.map((a) => ({ id: a.id, filename: a.filename })) };
}

const dateText = (v: Date | string): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

@Injectable()
export class PgJournalActivityRepository extends JournalActivityRepository {
  /** the attachments' parts (the journal's port, bound by the attachments module) */
  constructor(private readonly attachmentsSql: EntryAttachmentsSql) {
    super();
  }

  async entries(m: EntityManager, organizationId: string, appId: string, page: { limit: number; offset: number }): Promise<ActivityEntry[]> {
    const rows: Array<Record<string, unknown>> = await m.query(
      `SELECT e.id, e.voucher_year, e.voucher_number, e.posting_date::text AS posting_date, e.description,
              (SELECT coalesce(sum(l.debit_minor), 0)::text FROM journal_lines l WHERE l.organization_id = e.organization_id AND l.entry_id = e.id) AS total_debit,
              (${this.attachmentsSql.attachmentsOf('e.organization_id', 'e.id')}) AS files,
              r.voucher_year AS reverses_year, r.voucher_number AS reverses_number
         FROM journal_entries e
         LEFT JOIN journal_entries r ON r.organization_id = e.organization_id AND r.id = e.reverses
        WHERE e.organization_id = $1 AND e.app_id = $2 AND e.environment = 'production'
        ORDER BY e.created_at DESC, e.voucher_year DESC, e.voucher_number DESC, e.id DESC LIMIT $3 OFFSET $4`,
      [organizationId, appId, page.limit, page.offset],
    );
    return rows.map((r) => ({
      id: r.id as string,
      voucherYear: Number(r.voucher_year),
      voucherNumber: Number(r.voucher_number),
      postingDate: dateText(r.posting_date as string),
      description: (r.description as string | null) ?? null,
      totalDebitMinor: String(r.total_debit),
      ...filesOf(r.files),
      reverses: r.reverses_year === null ? null : { voucherYear: Number(r.reverses_year), voucherNumber: Number(r.reverses_number) },
    }));
  }

  async lines(m: EntityManager, organizationId: string, appId: string, maxLines: number): Promise<ActivityLine[]> {
    const rows: Array<Record<string, unknown>> = await m.query(
      `SELECT e.id, e.voucher_year, e.voucher_number, e.posting_date::text AS posting_date, e.description,
              json_array_length((${this.attachmentsSql.attachmentsOf('e.organization_id', 'e.id')})) AS attachments,
              l.line_no, a.number AS account_number, a.name AS account_name, l.debit_minor::text AS debit, l.credit_minor::text AS credit, l.line_text
         FROM journal_entries e
         JOIN journal_lines l ON l.organization_id = e.organization_id AND l.entry_id = e.id
         ${OrganizationsSql.joinAccount('a', 'l.organization_id', 'l.account_id')}
        WHERE e.organization_id = $1 AND e.app_id = $2 AND e.environment = 'production'
        ORDER BY e.created_at DESC, e.voucher_year DESC, e.voucher_number DESC, e.id DESC, l.line_no LIMIT $3`,
      [organizationId, appId, maxLines],
    );
    return rows.map((r) => ({
      id: r.id as string,
      voucherYear: Number(r.voucher_year),
      voucherNumber: Number(r.voucher_number),
      postingDate: dateText(r.posting_date as string),
      description: (r.description as string | null) ?? null,
      attachments: Number(r.attachments),
      lineNo: Number(r.line_no),
      accountNumber: r.account_number as string,
      accountName: r.account_name as string,
      debitMinor: String(r.debit),
      creditMinor: String(r.credit),
      lineText: (r.line_text as string | null) ?? null,
    }));
  }
}

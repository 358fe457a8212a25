import { Injectable } from '@nestjs/common';
import { type CommitOrderedRow, commitOrderedRead, commitOrderedStatement } from '../../../shared/database/commit-order.sql';
import { Sql } from '../../../shared/database/sql';
import { raw, sql } from '../../../shared/database/sql-template';
import type { CommitPosition } from '../../../shared/domain/commit-order';
import { EntryAttachmentsSql } from '../domain/entry-attachments.sql';
import { type EntryFilter, type EntryOwner, JournalEntryReadRepository, type JournalEntryView } from '../domain/journal-entry-read';

const PAGE_SLOTS = ['organizationId', 'appId', 'environment', 'xid', 'id', 'from', 'to', 'withoutAttachments', 'limit'] as const;

/** The statements, built once from the attachments' parts (EntryAttachmentsSql, bound by the attachments module). */
function statements(AttachmentsSql: EntryAttachmentsSql) {
  /** The entry `e` as CONTRACT §17 writes it: lines in posted order, its attachments (the attachments module's part). */
  const ENTRY_COLUMNS = `e.id, e.voucher_year, e.voucher_number, e.posting_date::text AS posting_date,
         e.transaction_date::text AS transaction_date, e.document_date::text AS document_date, e.description, e.currency,
         (SELECT json_agg(json_build_object('account_id', l.account_id, 'debit_minor', l.debit_minor, 'credit_minor', l.credit_minor,
                   'tax_code_id', l.tax_code_id, 'dimension_refs', l.dimension_refs, 'line_text', l.line_text) ORDER BY l.line_no)
            FROM journal_lines l WHERE l.organization_id = e.organization_id AND l.entry_id = e.id) AS lines,
         (${AttachmentsSql.attachmentsOf('e.organization_id', 'e.id')}) AS attachments,
         e.operation_id, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS posted_at,
         e.reverses,
         (SELECT r.id FROM journal_entries r WHERE r.organization_id = e.organization_id AND r.reverses = e.id) AS reversed_by,
         json_build_object('app_id', e.app_id, 'app_name', e.app_name, 'grant_id', e.grant_id) AS registered_by`;

  /** The horizon and the position: docs/adr/0011-journal-entries-commit-order.md (the events feed's, ADR 0006). */
  const PAGE = commitOrderedStatement(
    PAGE_SLOTS,
    (s) => sql`SELECT ${raw(ENTRY_COLUMNS)}, e.commit_xid AS xid
    FROM journal_entries e
   WHERE e.organization_id = ${s.organizationId} AND e.app_id = ${s.appId} AND e.environment = ${s.environment}
     AND (e.commit_xid, e.id) > (${s.xid}::xid8, ${s.id}::uuid)
     AND e.commit_xid < h.xid
     AND (${s.from}::date IS NULL OR e.posting_date >= ${s.from}::date)
     AND (${s.to}::date IS NULL OR e.posting_date <= ${s.to}::date)
     AND (NOT ${s.withoutAttachments}::boolean OR NOT ${raw(AttachmentsSql.hasAttachment('e.organization_id', 'e.id'))})
   ORDER BY e.commit_xid, e.id
   LIMIT ${s.limit}`,
  );

  const NEWEST = `SELECT ${ENTRY_COLUMNS}
    FROM journal_entries e
   WHERE e.organization_id = $1 AND e.app_id = $2 AND e.environment = $3
   ORDER BY e.commit_xid DESC, e.id DESC
   LIMIT $4`;

  const ONE = `SELECT ${ENTRY_COLUMNS}
    FROM journal_entries e
   WHERE e.organization_id = $1 AND e.id = $2 AND e.app_id = $3 AND e.environment = $4`;

  return { PAGE, NEWEST, ONE };
}

type EntryRow = Omit<JournalEntryView, 'lines'> & { lines: JournalEntryView['lines'] | null; xid?: string; uncertain?: boolean };

const viewOf = ({ xid: _xid, uncertain: _uncertain, ...row }: EntryRow): JournalEntryView => ({ ...row, lines: row.lines ?? [] });

@Injectable()
export class PgJournalEntryReadRepository extends JournalEntryReadRepository {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly sql: Sql,
    attachments: EntryAttachmentsSql,
  ) {
    super();
    this.statements = statements(attachments);
  }

  async page(owner: EntryOwner, after: CommitPosition, limit: number, filter: EntryFilter) {
    const rows = await commitOrderedRead<EntryRow & CommitOrderedRow, (typeof PAGE_SLOTS)[number]>(this.sql, this.statements.PAGE, {
      organizationId: owner.organizationId,
      appId: owner.appId,
      environment: owner.environment,
      xid: after.xid,
      id: after.id,
      from: filter.postingDateFrom,
      to: filter.postingDateTo,
      withoutAttachments: filter.withoutAttachments,
      limit,
    });
    return rows.map((r) => ({ entry: viewOf(r), position: { xid: r.xid, id: r.id } }));
  }

  async newest(owner: EntryOwner, limit: number): Promise<JournalEntryView[]> {
    const rows = await this.sql.query<EntryRow>(this.statements.NEWEST, [owner.organizationId, owner.appId, owner.environment, limit]);
    return rows.map(viewOf);
  }

  async entry(owner: EntryOwner, id: string): Promise<JournalEntryView | null> {
    const [row] = await this.sql.query<EntryRow>(this.statements.ONE, [owner.organizationId, id, owner.appId, owner.environment]);
    return row ? viewOf(row) : null;
  }
}

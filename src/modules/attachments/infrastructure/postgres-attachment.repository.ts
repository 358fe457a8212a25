import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
import type { NumberedStep } from '../../../shared/domain/row-insert';
import { OrganizationsSql } from '../../auth/organizations/sql';
import { JournalSql } from '../../journal/sql';
import {
  type AttachableEntry,
  type AttachmentMediaType,
  AttachmentRepository,
  MAX_ATTACHMENTS_PER_ENTRY,
  type NewAttachment,
  QuotaExceededError,
  type StoredAttachment,
  TooManyAttachmentsError,
} from '../domain/attachment';
import { DownloadShare } from './download-share';
import { bind, empty, queryWith, raw, sql, type SqlFragment } from '../../../shared/database/sql-template';

/**
 * A download reads the bytes in pieces of this size, each one statement through the download share
 * (download-share.ts) with no connection held between them: no attachment is ever held whole to send it.
 */
const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

/**
 * The entry's verdict (the journal's part) and the attachment, in one statement; the bytes too when they
 * fit in one piece (most vouchers), else they are read in pieces afterwards.
 */
function stored(owner: { organizationId: string; appId: string; environment: string }, entryId: string, attachmentId: string): SqlFragment {
  const organizationId = bind(owner.organizationId);
  const entry = bind(entryId);
  return sql`SELECT e.ok AS entry, t.filename, t.content_type, t.size, t.sha256,
         CASE WHEN t.size <= ${DOWNLOAD_CHUNK_BYTES} THEN (SELECT c.content FROM attachment_contents c WHERE c.organization_id = ${organizationId} AND c.sha256 = t.sha256) END AS content
    FROM (SELECT EXISTS (${JournalSql.appEntryOf({ organizationId, entryId: entry, environment: bind(owner.environment), appId: bind(owner.appId) })}) AS ok) e
    LEFT JOIN attachments t ON e.ok AND t.organization_id = ${organizationId} AND t.entry_id = ${entry} AND t.id = ${attachmentId}`;
}

/**
 * The app's own entry (JournalSql.appEntryOf), whether the organization's attachments count against
 * SANDBOX_STORAGE_MAX_BYTES (CONTRACT §20: a sandbox project's organization, or a demo company) and its
 * counter as it stands.
 */
function attachable(owner: { organizationId: string; appId: string; environment: string }, entryId: string): SqlFragment {
  const organizationId = bind(owner.organizationId);
  const environment = bind(owner.environment);
  return sql`SELECT e.voucher_year, e.voucher_number, (${environment} = 'sandbox' OR coalesce(${OrganizationsSql.isDemo(organizationId)}, false)) AS counted,
         (SELECT s.bytes FROM attachment_storage s WHERE s.organization_id = ${organizationId}) AS used
    FROM (${JournalSql.appEntryOf({ organizationId, entryId: bind(entryId), environment, appId: bind(owner.appId) })}) e`;
}

const CHUNK = `SELECT substring(content FROM $3 FOR $4) AS bytes FROM attachment_contents WHERE organization_id = $1 AND sha256 = $2`;

/** The PostgreSQL adapter of the attachment port (the default; docs/scaling.md). */
@Injectable()
export class PostgresAttachmentRepository extends AttachmentRepository {
  constructor(
    private readonly sql: Sql,
    private readonly share: DownloadShare,
  ) {
    super();
  }

  async attachableEntry(owner: { organizationId: string; appId: string; environment: string }, entryId: string): Promise<AttachableEntry | null> {
    const [row] = await queryWith<{ voucher_year: number; voucher_number: number; counted: boolean; used: string | number | null }>(
      this.sql,
      attachable(owner, entryId),
    );
    if (!row) return null;
    // the first upload of a counted organization makes its counter row, which every upload's write then locks
    if (row.counted && row.used === null) {
      await this.sql.query(`INSERT INTO attachment_storage (organization_id, bytes) VALUES ($1, 0) ON CONFLICT (organization_id) DO NOTHING`, [
        owner.organizationId,
      ]);
    }
    return { voucherYear: Number(row.voucher_year), voucherNumber: Number(row.voucher_number), storageUsed: row.counted ? Number(row.used ?? 0) : null };
  }

  /**
   * The entry's counter row is locked first (counterLock) and taken by an upsert whose row lock
   * serializes attachments to one entry, so the 20 and the default names' numbers hold on any number of
   * instances; a full counter takes no number (nothing is written). The bytes go in once per
   * organization, and are written again when they are there already (ON CONFLICT DO UPDATE): an upload
   * costs the same whether or not another app of the organization sent the file (issue 43: the time of
   * an upload told). A counted organization's storage row (CONTRACT §20) is locked right after the
   * entry's counter, before the gate's rows; the locking read sees the last committed use, so the limit
   * holds on any number of instances, and the use grows by the size in the same statement.
   */
  numberedAttachment(a: NewAttachment): NumberedStep {
    const counted = a.storageLimit !== null;
    const organizationId = bind(a.organizationId);
    const entryId = bind(a.entryId);
    const sha256 = bind(a.sha256);
    const size = bind(a.bytes.length);
    const limit = bind(a.storageLimit);
    return {
      ctes: (source) => sql`${
        counted
          ? sql`room AS (SELECT bytes FROM attachment_storage WHERE organization_id = ${organizationId} FOR UPDATE),
       over_quota AS (SELECT count(*)::int AS over FROM room WHERE ${limit}::bigint > 0 AND room.bytes + ${size}::bigint > ${limit}::bigint),
       `
          : empty
      }numbered AS (
         INSERT INTO attachment_counters (organization_id, entry_id, last_number) SELECT ${organizationId}, ${entryId}, 1 FROM ${source}${counted ? raw(` WHERE (SELECT over FROM over_quota) = 0`) : empty}
         ON CONFLICT (organization_id, entry_id) DO UPDATE SET last_number = attachment_counters.last_number + 1
          WHERE attachment_counters.last_number < ${raw(String(MAX_ATTACHMENTS_PER_ENTRY))}
         RETURNING last_number AS n, coalesce(${a.filename}::text, ${a.defaultName.prefix}::text || last_number || ${a.defaultName.suffix}::text) AS filename),
       content AS (
         INSERT INTO attachment_contents (organization_id, sha256, size, content) SELECT ${organizationId}, ${sha256}, ${size}, ${a.bytes}::bytea FROM numbered
         ON CONFLICT (organization_id, sha256) DO UPDATE SET content = EXCLUDED.content RETURNING 1),
       attachment AS (
         INSERT INTO attachments (organization_id, id, entry_id, number, filename, content_type, size, sha256, created_at)
         SELECT ${organizationId}, ${a.id}, ${entryId}, numbered.n, numbered.filename, ${a.contentType}, ${size}, ${sha256}, ${a.createdAt} FROM numbered RETURNING 1),${
           counted
             ? sql`
       charged AS (
         INSERT INTO attachment_storage (organization_id, bytes) SELECT ${organizationId}, ${size} FROM numbered
         ON CONFLICT (organization_id) DO UPDATE SET bytes = attachment_storage.bytes + EXCLUDED.bytes RETURNING 1),`
             : empty
         }
       counter_now AS (SELECT last_number FROM attachment_counters WHERE organization_id = ${organizationId} AND entry_id = ${entryId})`,
      // the counter as the statement's snapshot saw it: full, or moved on by a commit it could not see (run again);
      // the storage use as the locking read saw it (the last committed): over the limit decides at once
      report: raw(
        `(SELECT count(*) FROM counter_now WHERE last_number >= ${MAX_ATTACHMENTS_PER_ENTRY})::int AS entry_full, ${
          counted ? '(SELECT over FROM over_quota)' : '0'
        } AS over_quota`,
      ),
      // the storage row after the entry's counter: every upload takes them in this order
      counterLock: {
        names: [`attachment_counters ${a.organizationId} ${a.entryId}`, ...(counted ? [`attachment_storage ${a.organizationId}`] : [])],
        rows: (lockTimeout) => {
          const [org, entry] = [bind(a.organizationId), bind(a.entryId)];
          return counted
            ? sql`SELECT 1 FROM (SELECT 1 FROM attachment_counters WHERE organization_id = ${org} AND entry_id = ${entry} AND ${lockTimeout} FOR UPDATE) c
             UNION ALL SELECT 1 FROM (SELECT 1 FROM attachment_storage WHERE organization_id = ${org} FOR UPDATE) s`
            : sql`SELECT 1 FROM attachment_counters WHERE organization_id = ${org} AND entry_id = ${entry} AND ${lockTimeout} FOR UPDATE`;
        },
      },
      responseKey: 'filename',
      response: {
        sql: raw(`jsonb_build_object('filename', numbered.filename)`),
        complete: (body, n) => ({ ...body, filename: a.filename ?? `${a.defaultName.prefix}${n}${a.defaultName.suffix}` }),
      },
      lane: `attachments/${a.organizationId}/${a.entryId}`,
      refusal: (result) => (result.over_quota ? new QuotaExceededError(a.storageLimit ?? 0) : result.entry_full ? new TooManyAttachmentsError() : 'retry'),
    };
  }

  async stored(
    owner: { organizationId: string; appId: string; environment: string },
    entryId: string,
    attachmentId: string,
  ): Promise<{ entry: boolean; attachment: StoredAttachment | null }> {
    const [row] = await this.share.run(() =>
      queryWith<{
        entry: boolean;
        filename: string | null;
        content_type: AttachmentMediaType;
        size: number;
        sha256: string;
        content: Buffer | Uint8Array | null;
      }>(this.sql, stored(owner, entryId, attachmentId)),
    );
    if (!row?.entry || row.filename === null) return { entry: Boolean(row?.entry), attachment: null };
    const size = Number(row.size);
    const { sql, share } = this;
    const whole = row.content === null ? null : Buffer.isBuffer(row.content) ? row.content : Buffer.from(row.content);
    return {
      entry: true,
      attachment: {
        filename: row.filename,
        contentType: row.content_type,
        size,
        sha256: row.sha256,
        async *chunks() {
          if (whole) {
            yield whole;
            return;
          }
          // the content row never changes (content-addressed), so reading it in pieces is consistent
          for (let from = 1; from <= size; from += DOWNLOAD_CHUNK_BYTES) {
            const [piece] = await share.run(() =>
              sql.query<{ bytes: Buffer | Uint8Array }>(CHUNK, [owner.organizationId, row.sha256, from, DOWNLOAD_CHUNK_BYTES]),
            );
            // gone since the download began (the operator deleted it): the answer cannot be completed
            if (!piece) throw new Error(`attachment content ${row.sha256} is gone mid-download`);
            yield Buffer.isBuffer(piece.bytes) ? piece.bytes : Buffer.from(piece.bytes);
          }
        },
      },
    };
  }
}

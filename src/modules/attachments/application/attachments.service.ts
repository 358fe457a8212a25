import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { DomainError, NotFoundError } from '../../../shared/domain/errors';
import { CreateOnceService, type NewResource } from '../../idempotency';
import {
  type AttachableEntry,
  type AttachmentMediaType,
  ATTACHMENT_ADD,
  AttachmentRepository,
  type AttachmentView,
  defaultNameAround,
  fitsQuota,
  QuotaExceededError,
  startsAs,
  type StoredAttachment,
  UnsupportedAttachmentTypeError,
} from '../domain/attachment';
import { ublDocumentProblem } from '../domain/ubl-xml';

/** CONTRACT §17: the answer of an upload — the attachment, its operation, and whether it was a replay. */
export type AttachmentAdded = AttachmentView & { operation_id: string; replayed: boolean };

/** One upload as the controller received it. */
export interface Upload {
  contentType: AttachmentMediaType;
  /** the name the Content-Disposition gave (already kept as §17 says), or null */
  filename: string | null;
  bytes: Buffer;
}

const ownerOf = (c: CallerContext) => ({ organizationId: c.organizationId, appId: c.appId, environment: c.environment });

/** Voucher documentation (CONTRACT §17): attaching to the app's own entries, and reading it back. */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly once: CreateOnceService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The app's own entry, or 404 (the same body for every other id, CONTRACT §17); 403 quota_exceeded
   * (CONTRACT §20) at once when the declared size cannot fit, before a byte of the body is read.
   */
  async entry(caller: CallerContext, entryId: string, declaredBytes: number | null = null): Promise<AttachableEntry> {
    const entry = await this.attachments.attachableEntry(ownerOf(caller), entryId);
    if (!entry) throw new NotFoundError('journal entry');
    // a replay (a record under the key, read with the token) is answered by its record, never refused
    if (declaredBytes !== null && Number.isFinite(declaredBytes) && !caller.prefetched.idempotency?.record) this.assertRoom(entry, declaredBytes);
    return entry;
  }

  /** CONTRACT §20: a counted organization's use with `bytes` more stays within SANDBOX_STORAGE_MAX_BYTES. */
  private assertRoom(entry: AttachableEntry, bytes: number): void {
    const max = this.config.sandboxStorageMaxBytes;
    if (entry.storageUsed !== null && !fitsQuota(entry.storageUsed, bytes, max)) throw new QuotaExceededError(max);
  }

  /**
   * Attaches the file exactly once per Idempotency-Key (CONTRACT §6, §17): the bytes checked against their
   * type, then — as ONE statement with the idempotency record, the receipt `attachment.add` and its
   * outbox row (CreateOnceService.createNumbered) — the entry's next attachment number (at most 20), the
   * bytes once per organization, the attachment row. The fingerprint covers the entry, the type, the given name and the bytes' sha256.
   */
  async add(caller: CallerContext, key: string, entryId: string, entry: AttachableEntry, upload: Upload): Promise<AttachmentAdded> {
    if (upload.bytes.length === 0) {
      throw new DomainError('invalid_input', 'The body is empty: send the file itself');
    }
    if (!startsAs(upload.contentType, upload.bytes)) {
      throw new UnsupportedAttachmentTypeError(`The file does not start as ${upload.contentType} does`);
    }
    const notUbl = upload.contentType === 'application/xml' ? ublDocumentProblem(upload.bytes) : null;
    if (notUbl) throw new UnsupportedAttachmentTypeError(`An application/xml attachment must be a UBL 2.1 e-invoice document; ${notUbl}`);
    const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
    const input = { entry_id: entryId, content_type: upload.contentType, filename: upload.filename, sha256 };
    const build = (made: NewResource) => ({
      response: {
        id: made.id,
        filename: upload.filename ?? '',
        content_type: upload.contentType,
        size: upload.bytes.length,
        sha256,
        created_at: made.createdAt.toISOString(),
        operation_id: made.operationId,
        replayed: false,
      } as Record<string, unknown>,
      step: this.attachments.numberedAttachment({
        id: made.id,
        organizationId: made.organizationId,
        entryId,
        contentType: upload.contentType,
        filename: upload.filename,
        defaultName: defaultNameAround(entry.voucherYear, entry.voucherNumber, upload.contentType),
        sha256,
        bytes: upload.bytes,
        createdAt: made.createdAt,
        storageLimit: entry.storageUsed === null ? null : this.config.sandboxStorageMaxBytes,
      }),
    });
    // the use as read before the upload (once no record answers); the write decides again under the organization's row lock
    const check = async () => this.assertRoom(entry, upload.bytes.length);
    const body = await this.once.createNumbered(caller, key, ATTACHMENT_ADD, input, build, check);
    // the stored first answer carries `environment` nowhere (§17's body has none), so a replay is the same members
    return body as unknown as AttachmentAdded;
  }

  /**
   * The attachment of an entry `owner.appId` posted to `owner.organizationId` (the owner's Connected apps
   * page, CONTRACT §18, after it has checked the grant is the signed-in owner's), or null.
   */
  async storedFor(
    owner: { organizationId: string; appId: string; environment: string },
    entryId: string,
    attachmentId: string,
  ): Promise<StoredAttachment | null> {
    const { entry, attachment } = await this.attachments.stored(owner, entryId, attachmentId);
    return entry && attachment ? attachment : null;
  }

  /** The attachment of the app's own entry, or 404: an entry not the app's is refused as the entry reads refuse it. */
  async download(caller: CallerContext, entryId: string, attachmentId: string): Promise<StoredAttachment> {
    const { entry, attachment } = await this.attachments.stored(ownerOf(caller), entryId, attachmentId);
    if (!entry) throw new NotFoundError('journal entry');
    if (!attachment) throw new NotFoundError('attachment');
    return attachment;
  }
}

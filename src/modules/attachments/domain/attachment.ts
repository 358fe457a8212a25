import { parse as parseContentDisposition } from 'content-disposition';
import { DomainError } from '../../../shared/domain/errors';
import type { NumberedStep } from '../../../shared/domain/row-insert';
import { ATTACHMENT_MEDIA_TYPES, type AttachmentMediaType } from '../../../shared/domain/attachment-media-types';

/**
 * CONTRACT §17: voucher documentation (bilag) attached to a journal entry. These are the rules; the
 * bytes live behind AttachmentRepository (PostgreSQL by default; docs/scaling.md says where an object
 * store would plug in).
 */

export { ATTACHMENT_MEDIA_TYPES, type AttachmentMediaType };

/** CONTRACT §17: at most this many attachments per entry (the 21st is 409 resource_conflict). */
export const MAX_ATTACHMENTS_PER_ENTRY = 20;
/** CONTRACT §17: a kept filename has at most this many characters (code points). */
export const MAX_FILENAME_CHARACTERS = 255;

/** CONTRACT §17 `<attachment>`. */
export interface AttachmentView {
  id: string;
  filename: string;
  content_type: AttachmentMediaType;
  size: number;
  sha256: string;
  created_at: string;
}

/** 415 unsupported_media_type: a type outside the four, or bytes that do not start as the type says. */
export class UnsupportedAttachmentTypeError extends DomainError {
  constructor(detail = `Send the file as one of ${Object.keys(ATTACHMENT_MEDIA_TYPES).join(', ')}, with bytes of that type`) {
    super('unsupported_media_type', detail);
  }
}

/** 413 payload_too_large. */
export class AttachmentTooLargeError extends DomainError {
  constructor(maxBytes: number) {
    super('payload_too_large', `An attachment must be at most ${maxBytes} bytes`);
  }
}

/**
 * 403 quota_exceeded (CONTRACT §20): the attachments of a sandbox project or demo organization would exceed
 * SANDBOX_STORAGE_MAX_BYTES. Every attachment counts its own size, also when its bytes are stored once for
 * several (the use says nothing about what other apps of the organization uploaded).
 */
export class QuotaExceededError extends DomainError {
  constructor(maxBytes: number) {
    super(
      'quota_exceeded',
      `A sandbox project or demo organization holds at most ${maxBytes} bytes of attachments (SANDBOX_STORAGE_MAX_BYTES); this file would exceed that`,
    );
  }
}

/** Whether `bytes` more fit under the limit (0: no limit). */
export const fitsQuota = (usedBytes: number, bytes: number, maxBytes: number): boolean => maxBytes === 0 || usedBytes + bytes <= maxBytes;

/** 409 resource_conflict for the 21st attachment of an entry. */
export class TooManyAttachmentsError extends DomainError {
  constructor() {
    super('resource_conflict', `An entry has at most ${MAX_ATTACHMENTS_PER_ENTRY} attachments`);
  }
}

/** The media type a Content-Type header names (parameters and case ignored), or null when not one of the four. */
export function attachmentMediaTypeOf(header: string | undefined): AttachmentMediaType | null {
  if (!header) return null;
  const type = header.split(';')[0].trim().toLowerCase();
  return Object.hasOwn(ATTACHMENT_MEDIA_TYPES, type) ? (type as AttachmentMediaType) : null;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');

/** XML: `<` after an optional byte order mark (UTF-8, or UTF-16 either way) and whitespace. */
function looksLikeXml(bytes: Buffer): boolean {
  let unit = 1;
  let at = 0;
  let bigEndian = false;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) at = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [unit, at] = [2, 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [unit, at, bigEndian] = [2, 2, true];
  for (; at + unit <= bytes.length; at += unit) {
    const c = unit === 1 ? bytes[at] : bigEndian ? (bytes[at] << 8) | bytes[at + 1] : bytes[at] | (bytes[at + 1] << 8);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x3c;
  }
  return false;
}

/** CONTRACT §17: whether the file's first bytes match its declared type. */
export function startsAs(type: AttachmentMediaType, bytes: Buffer): boolean {
  switch (type) {
    case 'application/pdf':
      return bytes.subarray(0, PDF.length).equals(PDF);
    case 'image/png':
      return bytes.subarray(0, PNG.length).equals(PNG);
    case 'image/jpeg':
      return bytes.subarray(0, JPEG.length).equals(JPEG);
    case 'application/xml':
      return looksLikeXml(bytes);
  }
}

// C0 and C1 control characters and DEL
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * CONTRACT §20: the bidirectional controls a stored name never has (marks, embeddings, overrides, isolates):
 * `faktura-1042\u202Efdp.hta` would show as "faktura-1042ath.pdf".
 */
const BIDI_CONTROL = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A plain `filename="…"` arrives as Node reads header bytes (one character per byte); CONTRACT §20 reads
 * it as UTF-8 (`æøå.pdf`, not `Ã¦Ã¸Ã¥.pdf`). Bytes that are not UTF-8 stay as ISO-8859-1 (RFC 9110 §5.5).
 */
function asUtf8(latin1: string): string {
  if (!/[\u0080-\u00ff]/.test(latin1)) return latin1;
  try {
    return UTF8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}

/**
 * CONTRACT §17, §20: the name a `Content-Disposition` header (RFC 6266, `filename*` preferred; a plain
 * `filename` read as UTF-8) gives a file of `type`, kept without any path, control or bidirectional
 * control characters, with the type's extension in place of any other, at most 255 characters; null
 * when the header is absent or names nothing usable (the default name is used; the parser is lenient, as
 * RFC 6266 §4.3 asks).
 */
export function filenameOf(header: string | undefined, type: AttachmentMediaType): string | null {
  if (header === undefined || header.trim() === '') return null;
  let name: string | undefined;
  try {
    name = parseContentDisposition(header).parameters.filename;
    // the same value without `filename*`: the name came from the plain parameter
    if (name !== undefined && name === parseContentDisposition(header, { extended: false }).parameters.filename) name = asUtf8(name);
  } catch {
    return null;
  }
  if (name === undefined) return null;
  const base = name.replace(CONTROL, '').replace(BIDI_CONTROL, '').split(/[/\\]/).pop() ?? '';
  // the stem: without a trailing extension (any, the type's too) and the dots and spaces before it
  const stem = base
    .replace(/[. ]+$/, '')
    .replace(/\.[^.]*$/, '')
    .replace(/[. ]+$/, '');
  if (stem === '') return null;
  const extension = `.${ATTACHMENT_MEDIA_TYPES[type]}`;
  return [...stem].slice(0, MAX_FILENAME_CHARACTERS - extension.length).join('') + extension;
}

/** CONTRACT §17: the default name `bilag-<voucher_year>-<voucher_number>-<n>.<ext>`, around the number n. */
export function defaultNameAround(voucherYear: number, voucherNumber: number, type: AttachmentMediaType): { prefix: string; suffix: string } {
  return { prefix: `bilag-${voucherYear}-${voucherNumber}-`, suffix: `.${ATTACHMENT_MEDIA_TYPES[type]}` };
}

/** What one upload stores: its bytes are content-addressed per organization. */
export interface NewAttachment {
  id: string;
  organizationId: string;
  entryId: string;
  contentType: AttachmentMediaType;
  /** the given name, or null for the default name */
  filename: string | null;
  defaultName: { prefix: string; suffix: string };
  sha256: string;
  bytes: Buffer;
  createdAt: Date;
  /**
   * CONTRACT §20: the organization's storage limit when its attachments are counted (a sandbox project or a
   * demo organization; 0 counts without a limit), null when they are not (production organizations).
   */
  storageLimit: number | null;
}

/** The entry an app may attach to, as the journal decided it (its voucher year and number). */
export interface AttachableEntry {
  voucherYear: number;
  voucherNumber: number;
  /**
   * CONTRACT §20: the attachment bytes the organization holds when they are counted (a sandbox project or
   * a demo organization), as read before the upload; null for a production organization (no quota).
   */
  storageUsed: number | null;
}

/** One stored attachment's bytes and what the download says about them. */
export interface StoredAttachment {
  filename: string;
  contentType: AttachmentMediaType;
  size: number;
  sha256: string;
  /** the bytes, read in pieces (an attachment is never held whole for a download) */
  chunks(): AsyncIterable<Buffer>;
}

/**
 * Port: where attachments live. The PostgreSQL adapter keeps the bytes in `attachment_contents` (one row
 * per distinct content per organization); an object-store adapter would keep them under their sha256
 * and only the rows here (docs/scaling.md).
 */
export abstract class AttachmentRepository {
  /**
   * The app's own entry (CONTRACT §17), as the journal says, with the organization's storage use when it has
   * a quota (CONTRACT §20: its counter row made when missing, so the write can lock it); null for any other id.
   */
  abstract attachableEntry(owner: { organizationId: string; appId: string; environment: string }, entryId: string): Promise<AttachableEntry | null>;
  /**
   * The attachment as the numbered step of a one-statement write: the entry's attachment counter
   * (1…20) taken under its row lock, the bytes stored once per organization, the attachment row named
   * by `filename` or the default name around its number; when `storageLimit` is set, the organization's
   * storage counter locked after the entry's and charged with the size, or nothing written (QuotaExceededError).
   */
  abstract numberedAttachment(a: NewAttachment): NumberedStep;
  /**
   * Whether `entryId` is the app's own entry, and its attachment `attachmentId` (null when the entry has
   * none of that id), read together: a download is one statement (a small file's bytes included).
   */
  abstract stored(
    owner: { organizationId: string; appId: string; environment: string },
    entryId: string,
    attachmentId: string,
  ): Promise<{ entry: boolean; attachment: StoredAttachment | null }>;
}

/** The upload's receipt (CONTRACT §7, §17): its kind, which is also the operation the key's fingerprint names, and what it names. */
export const ATTACHMENT_ADD = { kind: 'attachment.add', resourceType: 'attachment' } as const;

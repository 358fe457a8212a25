import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './partner-api.js';

export type { components, operations, paths } from './partner-api.js';
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

/** CONTRACT §17: the media types of an attachment. */
export type AttachmentContentType = Schemas['Attachment']['content_type'];

/** A file to attach: its bytes (a `Uint8Array`, e.g. a Node `Buffer`), a `Blob`/`File`, or a path on disk (Node). */
export type AttachmentSource = Uint8Array | Blob | string;

/** A call's outcome, as openapi-fetch answers: `data` on success, the problem body otherwise. */
export type Outcome<T> = { data: T; error?: undefined; response: Response } | { data?: undefined; error: Problem; response: Response };

/** A downloaded attachment: its bytes and what the headers say, or `notModified` after a matching `ifNoneMatch`. */
export interface DownloadedAttachment {
  notModified: boolean;
  bytes: Uint8Array;
  contentType: string | null;
  /** the name from `Content-Disposition: attachment; filename*=UTF-8''…` */
  filename: string | null;
  /** the quoted sha256 of the bytes; send it as `ifNoneMatch` to get 304 for an unchanged copy */
  etag: string | null;
}

/** The voucher operations of CONTRACT §17 by their operationIds (uploads and downloads are raw bodies). */
export interface VoucherOperations {
  listJournalEntries(query?: NonNullable<operations['listJournalEntries']['parameters']['query']>): Promise<Outcome<Schemas['JournalEntriesPage']>>;
  getJournalEntry(entryId: string): Promise<Outcome<Schemas['JournalEntry']>>;
  addJournalEntryAttachment(
    entryId: string,
    file: AttachmentSource,
    options: { idempotencyKey: string; contentType?: AttachmentContentType; filename?: string },
  ): Promise<Outcome<Schemas['AttachmentAdded']>>;
  getJournalEntryAttachment(entryId: string, attachmentId: string, options?: { ifNoneMatch?: string }): Promise<Outcome<DownloadedAttachment>>;
}

export type PartnerClient = Client<paths> & VoucherOperations;

const TYPE_BY_EXTENSION: Record<string, AttachmentContentType> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  xml: 'application/xml',
};

/** RFC 8187 `attr-char`: everything else is percent-encoded (encodeURIComponent leaves `'()*!` alone). */
const rfc8187 = (name: string): string => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Bytes fetch can send: a view over an ArrayBuffer (a SharedArrayBuffer's are copied). */
function sendable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Uint8Array.from(bytes);
}

async function bytesOf(file: AttachmentSource): Promise<{ body: Uint8Array<ArrayBuffer> | Blob; name: string | null; type: string | null }> {
  if (typeof file === 'string') {
    // a path: read only where there is a file system (Node); a browser passes a Blob or bytes
    const { readFile } = await import('node:fs/promises');
    const { basename, extname } = await import('node:path');
    return { body: sendable(await readFile(file)), name: basename(file), type: TYPE_BY_EXTENSION[extname(file).slice(1).toLowerCase()] ?? null };
  }
  if (file instanceof Uint8Array) return { body: sendable(file), name: null, type: null };
  return { body: file, name: 'name' in file && typeof file.name === 'string' ? file.name : null, type: file.type || null };
}

async function problemOf(response: Response): Promise<Problem> {
  return (await response.json()) as Problem;
}

/**
 * A typed client of the partner API, generated from openapi/partner.json (`npm run openapi`), with the
 * voucher operations of CONTRACT §17 as methods. `baseUrl`: the sandbox (`…/api/partner/sandbox/v1`) or
 * production (`…/api/partner/v1`) base URL.
 */
export function createPartnerClient(baseUrl: string, token: string): PartnerClient {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const base = baseUrl.replace(/\/+$/, '');
  const authorization = `Bearer ${token}`;
  const voucher: VoucherOperations = {
    async listJournalEntries(query = {}) {
      const { data, error, response } = await client.GET('/journal/entries', { params: { query } });
      return data ? { data, response } : { error: error as Problem, response };
    },
    async getJournalEntry(entryId) {
      const { data, error, response } = await client.GET('/journal/entries/{entry_id}', { params: { path: { entry_id: entryId } } });
      return data ? { data, response } : { error: error as Problem, response };
    },
    async addJournalEntryAttachment(entryId, file, options) {
      const { body, name, type } = await bytesOf(file);
      const contentType = options.contentType ?? type;
      if (!contentType) throw new TypeError('addJournalEntryAttachment: give options.contentType (application/pdf, image/png, image/jpeg or application/xml)');
      const filename = options.filename ?? name;
      const headers: Record<string, string> = {
        Authorization: authorization,
        'Content-Type': contentType,
        'Idempotency-Key': options.idempotencyKey,
        ...(filename ? { 'Content-Disposition': `attachment; filename*=UTF-8''${rfc8187(filename)}` } : {}),
      };
      const response = await fetch(`${base}/journal/entries/${encodeURIComponent(entryId)}/attachments`, { method: 'POST', headers, body });
      if (response.status === 201) return { data: (await response.json()) as Schemas['AttachmentAdded'], response };
      return { error: await problemOf(response), response };
    },
    async getJournalEntryAttachment(entryId, attachmentId, options = {}) {
      const response = await fetch(`${base}/journal/entries/${encodeURIComponent(entryId)}/attachments/${encodeURIComponent(attachmentId)}`, {
        headers: { Authorization: authorization, ...(options.ifNoneMatch ? { 'If-None-Match': options.ifNoneMatch } : {}) },
      });
      if (response.status !== 200 && response.status !== 304) return { error: await problemOf(response), response };
      const disposition = response.headers.get('content-disposition');
      const encoded = disposition ? /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] : undefined;
      return {
        data: {
          notModified: response.status === 304,
          bytes: new Uint8Array(await response.arrayBuffer()),
          contentType: response.headers.get('content-type'),
          filename: encoded ? decodeURIComponent(encoded) : null,
          etag: response.headers.get('etag'),
        },
        response,
      };
    },
  };
  return Object.assign(client, voucher);
}

import { object, responseHeaders, type Responses, type Schema, uuid } from '../../../shared/http/openapi/common';
import { PARTNER_RATE } from '../../../shared/http/openapi/partner-operation';
import { ATTACHMENT_MEDIA_TYPES } from '../../../shared/domain/attachment-media-types';

// Voucher documentation in the partner document (CONTRACT §17).

const ATTACHMENT_TYPES = Object.keys(ATTACHMENT_MEDIA_TYPES);
/** The file itself, in any of the accepted types. */
const FILE_CONTENT = (): Record<string, unknown> => Object.fromEntries(ATTACHMENT_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]));

/** CONTRACT §17 `<attachment>`. */
const ATTACHMENT_MEMBERS: Record<string, Schema> = {
  id: uuid,
  filename: { type: 'string', minLength: 1, maxLength: 255 },
  content_type: { type: 'string', enum: [...ATTACHMENT_TYPES] },
  size: { type: 'integer', minimum: 1 },
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  created_at: { type: 'string', format: 'date-time' },
};

export const ATTACHMENT_SCHEMAS: Record<string, Schema> = {
  Attachment: object(ATTACHMENT_MEMBERS, undefined, { description: 'Voucher documentation attached to an entry (CONTRACT §17).' }),
  AttachmentAdded: object(
    {
      ...ATTACHMENT_MEMBERS,
      operation_id: uuid,
      replayed: { type: 'boolean', description: 'true: the answer of the first upload with this Idempotency-Key' },
    },
    undefined,
    { description: 'The answer of an upload: its first execution or a replay (CONTRACT §17).' },
  ),
};

export const UPLOAD_HEADERS = [
  {
    name: 'Content-Disposition',
    in: 'header',
    required: false,
    description:
      'RFC 6266 `attachment; filename="…"` (or `filename*=UTF-8\'\'…`) names the file; without it the name is `bilag-<voucher_year>-<voucher_number>-<n>.<ext>`.',
    schema: { type: 'string' },
  },
];

export const UPLOAD_BODY = {
  required: true,
  description: 'The file itself, at most ATTACHMENT_MAX_BYTES (default 10,485,760) bytes; its first bytes must match its type.',
  content: FILE_CONTENT(),
};

export const DOWNLOAD_HEADERS = [
  { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a copy the client has.', schema: { type: 'string' } },
];

export const DOWNLOAD_RESPONSES: Responses = {
  '200': {
    description: 'The file, with its type; `ETag` is its quoted sha256.',
    headers: {
      ...responseHeaders(200, PARTNER_RATE),
      ETag: { required: true, description: 'The quoted sha256 of the bytes.', schema: { type: 'string' } },
      'Content-Disposition': { required: true, description: "`attachment; filename*=UTF-8''…`", schema: { type: 'string' } },
    },
    content: FILE_CONTENT(),
  },
  '304': { description: '`If-None-Match` named the ETag: the bytes are those the client has.', headers: responseHeaders(304, PARTNER_RATE) },
};

import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { IDEMPOTENCY_ERRORS, PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { encodeExtended } from 'content-disposition';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { UuidParam } from '../../../shared/http/uuid-param.pipe';
import { Caller, PartnerRoute } from '../../auth/access';
import { Idempotent, IdempotencyKey, idempotencyRecordPrefetch } from '../../idempotency';
import { type AttachmentAdded, AttachmentsService } from '../application/attachments.service';
import { attachmentMediaTypeOf, filenameOf, UnsupportedAttachmentTypeError } from '../domain/attachment';
import { ATTACHMENT_SCHEMAS, DOWNLOAD_HEADERS, DOWNLOAD_RESPONSES, UPLOAD_BODY, UPLOAD_HEADERS } from './attachments.openapi';
import { sendAttachmentBytes } from './download-body';
import { receiveUpload, UploadBudget } from './upload-body';

/** An ETag list of If-None-Match (RFC 9110 §13.1.2, weak comparison) names this sha256, or is `*`. */
function matches(ifNoneMatch: string | undefined, sha256: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === `"${sha256}"`;
  });
}

/** Voucher documentation (CONTRACT §17): `journal:post` attaches, `journal:read` downloads. */
@ApiTags('journal')
@Controller(PARTNER_BASES.map((base) => `${base}/journal/entries/:entryId/attachments`))
export class AttachmentsController {
  constructor(
    private readonly attachments: AttachmentsService,
    private readonly budget: UploadBudget,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @PartnerRoute('journal:post', { prefetch: idempotencyRecordPrefetch })
  @Idempotent()
  @PartnerOperation({
    operationId: 'addJournalEntryAttachment',
    summary: 'Attach voucher documentation (bilag) to an entry the app posted',
    success: partnerJson(201, 'Attached, or a replay of the first upload with this Idempotency-Key.', ref('AttachmentAdded')),
    errors: [
      ...IDEMPOTENCY_ERRORS,
      'invalid_input',
      'not_found',
      'resource_conflict',
      'request_timeout',
      'payload_too_large',
      'unsupported_media_type',
      'quota_exceeded',
    ],
    schemas: ATTACHMENT_SCHEMAS,
    headers: UPLOAD_HEADERS,
    requestBody: UPLOAD_BODY,
  })
  async add(
    @Caller() caller: CallerContext,
    @IdempotencyKey() key: string,
    @UuidParam('entryId', 'journal entry') entryId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AttachmentAdded> {
    // the header middleware let only the four types through
    const contentType = attachmentMediaTypeOf(req.headers['content-type']);
    if (contentType === null) throw new UnsupportedAttachmentTypeError();
    const filename = filenameOf(req.headers['content-disposition'], contentType);
    const declared = req.headers['content-length'];
    const entry = await this.attachments.entry(caller, entryId, declared === undefined ? null : Number(declared));
    const upload = await receiveUpload(req, res, this.config.attachmentMaxBytes, this.budget);
    try {
      return await this.attachments.add(caller, key, entryId, entry, { contentType, filename, bytes: upload.bytes });
    } finally {
      upload.release();
    }
  }

  @Get(':attachmentId')
  @PartnerRoute('journal:read')
  @PartnerOperation({
    operationId: 'getJournalEntryAttachment',
    summary: 'The exact bytes of an attachment',
    success: DOWNLOAD_RESPONSES,
    errors: ['not_found'],
    headers: DOWNLOAD_HEADERS,
  })
  async download(
    @Caller() caller: CallerContext,
    @UuidParam('entryId', 'journal entry') entryId: string,
    @UuidParam('attachmentId', 'attachment') attachmentId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const stored = await this.attachments.download(caller, entryId, attachmentId);
    res.setHeader('ETag', `"${stored.sha256}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (matches(req.headers['if-none-match'], stored.sha256)) {
      res.status(304).end();
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', stored.contentType);
    res.setHeader('Content-Length', String(stored.size));
    // CONTRACT §17: the RFC 8187 form only, which carries any name
    res.setHeader('Content-Disposition', `attachment; filename*=${encodeExtended(stored.filename)}`);
    await sendAttachmentBytes(res, stored);
  }
}

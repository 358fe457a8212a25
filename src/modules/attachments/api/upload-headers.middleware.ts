import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { AttachmentTooLargeError, attachmentMediaTypeOf, UnsupportedAttachmentTypeError } from '../domain/attachment';

/**
 * CONTRACT §3 step 1 for an upload (CONTRACT §17): its declared media type (415) and declared size (413)
 * are transport, judged from the headers before the token — and before a byte of the body is read. Bound
 * to the attachment routes only, so routing comes first; the body itself is read by the route, after the
 * guards (api/upload-body.ts).
 */
@Injectable()
export class UploadHeadersMiddleware implements NestMiddleware {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'POST') return next();
    if (attachmentMediaTypeOf(req.headers['content-type']) === null) throw new UnsupportedAttachmentTypeError();
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > this.config.attachmentMaxBytes) {
      res.setHeader('Connection', 'close');
      throw new AttachmentTooLargeError(this.config.attachmentMaxBytes);
    }
    next();
  }
}

// The attachments module's public surface: other modules and the composition root import only this file (and sql.ts).
export { AttachmentsApiModule, AttachmentsCoreModule } from './attachments.module';
export { AttachmentsService } from './application/attachments.service';
export { sendAttachmentBytes } from './api/download-body';

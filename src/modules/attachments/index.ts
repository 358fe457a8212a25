// The attachments module's public surface: other modules and the composition root import only this file (and sql.ts).
export { AttachmentsApiModule, AttachmentsCoreModule } from './attachments.module';
export { AttachmentsService } from './application/attachments.service';
export { sendAttachmentBytes } from './api/download-body';
export { UploadBudget } from './api/upload-body';
export { DownloadShare } from './infrastructure/download-share';
export { ATTACHMENTS_FACTS } from './facts';
export { EntryAttachmentsSqlModule } from './entry-attachments-sql.module';

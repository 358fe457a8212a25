import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../shared/config/app-config';
import { GrantsModule } from '../auth/grants';
import { CreateOnceService, IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { EntryAttachmentsSqlModule } from './entry-attachments-sql.module';
import { AttachmentsController } from './api/attachments.controller';
import { UPLOAD_SHARE_IN_MAX_BYTES, UploadBudget } from './api/upload-body';
import { UploadHeadersMiddleware } from './api/upload-headers.middleware';
import { AttachmentsService } from './application/attachments.service';
import { AttachmentRepository } from './domain/attachment';
import { DownloadShare } from './infrastructure/download-share';
import { PostgresAttachmentRepository } from './infrastructure/postgres-attachment.repository';

/**
 * Voucher documentation (CONTRACT §17) on the partner listener: the upload and the download, the tables
 * `attachments`, `attachment_contents`, `attachment_counters`. The journal decides what an entry is
 * (JournalSql); the write goes through the idempotency, receipts and grants modules like a posting.
 */
/** The attachments' service without routes, for modules that read them (the owner's Connected apps, CONTRACT §18). */
@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule, EntryAttachmentsSqlModule],
  providers: [AttachmentsService, CreateOnceService, DownloadShare, { provide: AttachmentRepository, useClass: PostgresAttachmentRepository }],
  exports: [AttachmentsService, DownloadShare],
})
export class AttachmentsCoreModule {}

@Module({
  imports: [AttachmentsCoreModule],
  controllers: [AttachmentsController],
  providers: [
    {
      provide: UploadBudget,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new UploadBudget(UPLOAD_SHARE_IN_MAX_BYTES * config.attachmentMaxBytes),
    },
  ],
})
export class AttachmentsApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // bound to the known routes only: routing comes first (CONTRACT §3 step 0)
    consumer.apply(UploadHeadersMiddleware).forRoutes(AttachmentsController);
  }
}

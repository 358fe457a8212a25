// The attachments module's public surface: other modules and the composition root import only this file (and sql.ts).
export { AttachmentsApiModule } from './attachments.module';

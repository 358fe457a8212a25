/**
 * CONTRACT §17: the four media types of voucher documentation, with the extension of an attachment's
 * default name. Declared once: the attachments module checks them, the partner document lists them.
 */
export const ATTACHMENT_MEDIA_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/xml': 'xml',
} as const;
export type AttachmentMediaType = keyof typeof ATTACHMENT_MEDIA_TYPES;

import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

/**
 * A Standard Webhooks signing secret: `whsec_` + standard base64 of 24 random bytes (192 bits). The
 * `standardwebhooks` Webhook constructor strips the prefix and base64-decodes the rest as the HMAC key.
 */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

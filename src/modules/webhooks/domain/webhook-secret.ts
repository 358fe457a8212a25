import { randomBytes } from 'node:crypto';
import { RateLimitedError } from '../../../shared/domain/errors';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

/**
 * A Standard Webhooks signing secret: `whsec_` + standard base64 of 24 random bytes (192 bits). The
 * `standardwebhooks` Webhook constructor strips the prefix and base64-decodes the rest as the HMAC key.
 */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * CONTRACT §20 (version 6): at most this many secret rotations per endpoint within this many hours, on
 * every path that rotates (the console API, the developer console); counted with the endpoint row, whose
 * lock the rotation takes, so the limit holds on any number of instances.
 */
export const SECRET_ROTATIONS = { max: 3, windowHours: 24 } as const;

/** 429 rate_limited: the endpoint's secret was rotated SECRET_ROTATIONS.max times within the window. */
export class SecretRotationsExhaustedError extends RateLimitedError {
  constructor(retryAfterSeconds: number) {
    super(
      retryAfterSeconds,
      `An endpoint's secret is rotated at most ${SECRET_ROTATIONS.max} times in ${SECRET_ROTATIONS.windowHours} hours; retry after the time in Retry-After`,
    );
  }
}

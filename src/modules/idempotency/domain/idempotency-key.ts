import { DomainError } from '../../../shared/domain/errors';

const VISIBLE_ASCII_1_255 = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyKeyRequiredError extends DomainError {
  constructor() {
    super('idempotency_key_required', 'This operation needs an Idempotency-Key header');
  }
}

export class InvalidIdempotencyKeyError extends DomainError {
  constructor() {
    super('invalid_idempotency_key', 'The Idempotency-Key must be 1 to 255 visible ASCII characters (0x21–0x7E)');
  }
}

export function isWellFormedIdempotencyKey(header: string | string[] | undefined): header is string {
  return typeof header === 'string' && VISIBLE_ASCII_1_255.test(header);
}

/** CONTRACT §4: absent → idempotency_key_required; empty or not 1–255 visible ASCII → invalid_idempotency_key. */
export function parseIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined) throw new IdempotencyKeyRequiredError();
  if (!isWellFormedIdempotencyKey(header)) throw new InvalidIdempotencyKeyError();
  return header;
}

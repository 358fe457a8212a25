import { DomainError } from '../../../shared/domain/errors';

export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was used before with a different request; use a new key for a new request');
  }
}

export class IdempotencyRequestInProgressError extends DomainError {
  constructor() {
    super('idempotency_request_in_progress', 'A request with this Idempotency-Key is still running; retry with the same key and input');
  }
}

export class IdempotencyGrantChangedError extends DomainError {
  constructor() {
    super('idempotency_grant_changed', 'This Idempotency-Key was first used under another customer grant; use a new key');
  }
}

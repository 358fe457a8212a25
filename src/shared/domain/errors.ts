/**
 * The errors every module shares, in one file. Errors that only one module throws (the journal's
 * balance, the idempotency protocol's answers, the access guard's refusals) live in that module's
 * `domain/`; they extend DomainError or one of these.
 */

/**
 * One field at fault in a rejected request. `pointer` is an RFC 6901 JSON Pointer into the request
 * body and `code` is the kind of that single violation, so that a mix of amount and non-amount faults
 * can still be told apart per field (CONTRACT §4).
 */
export interface Violation {
  pointer: string;
  code: 'invalid_input' | 'invalid_amount' | 'reference_not_allowed';
  detail: string;
}

/** A refusal's reason by name (e.g. `webhookUrl.private`), with the values its words need. */
export interface Reason {
  readonly name: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** Response headers an error asks for (e.g. `Retry-After`); the problem filter writes them as they are. */
export type ErrorHeaders = Readonly<Record<string, string>>;

/**
 * The one error type domain and application code throw. `code` is the contract's stable code
 * (CONTRACT §4); the problem filter alone maps it to a status, so nothing here knows about HTTP
 * except the headers an error carries for the client (`Retry-After`).
 * `detail` reaches the caller verbatim, so it must never hold SQL, stack traces, internal ids the
 * caller did not send, or the name or owner of a foreign resource (CONTRACT §4).
 */
export class DomainError extends Error {
  /**
   * Why, for a page that says it in its reader's language (CONTRACT §18): a name the throwing module
   * declares beside its English detail, and the values its words need. Never part of a problem body
   * (the API's `detail` stays English, §18).
   */
  reason?: Reason;
  /**
   * The status when it is not the code's usual one from the catalogue: CONTRACT §19's `invalid_input`
   * answered 422 (a reversal dated before the entry it reverses, which only the books can tell).
   */
  readonly status?: number;

  constructor(
    readonly code: string,
    readonly detail: string,
    readonly violations?: Violation[],
    readonly headers?: ErrorHeaders,
  ) {
    super(detail);
    // Subclasses show up under their own name in logs without repeating this line.
    this.name = new.target.name;
  }

  /** The error with its reason for pages (see `reason`). */
  because(name: string, params?: Reason['params']): this {
    this.reason = params ? { name, params } : { name };
    return this;
  }
}

/** CONTRACT §4: `errors` holds at most this many entries, the first ones in body order. */
export const MAX_ERRORS = 100;

/**
 * The CONTRACT §4 rules: `invalid_amount` only when every violation is an amount violation; at most
 * MAX_ERRORS entries in `errors`, with `detail` stating the total.
 */
export function toInputError(violations: Violation[]): DomainError {
  const code = violations.every((v) => v.code === 'invalid_amount') ? 'invalid_amount' : 'invalid_input';
  const first = violations[0];
  const total = violations.length;
  const detail = `${total} violation${total === 1 ? '' : 's'}; first: ${first.pointer || '/'} ${first.detail}`;
  return new DomainError(code, detail, total > MAX_ERRORS ? violations.slice(0, MAX_ERRORS) : violations);
}

/** 404 `not_found`. The detail names only what the caller sent (CONTRACT §4, §10). */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `No such ${what}`);
  }
}

/** 409 `resource_conflict`: the resource exists (or the change contradicts one that does). */
export class ResourceConflictError extends DomainError {
  constructor(detail: string) {
    super('resource_conflict', detail);
  }
}

/** 409 `app_not_approved` (CONTRACT §10). */
export class AppNotApprovedError extends DomainError {
  constructor() {
    super('app_not_approved', 'The app has no approved revision');
  }
}

/**
 * 403 `aal2_required`: one error for every aal2 failure — no code, a code of the wrong type, a wrong,
 * stale or used code, a user who is not an owner of the organization — so that the answer does not
 * tell them apart.
 */
export class Aal2RequiredError extends DomainError {
  constructor() {
    super('aal2_required', 'A current, unused one-time code of an owner of the organization is required');
  }
}

/**
 * 429 `rate_limited` (CONTRACT §4, §8, §12). `retryAfterSeconds` (whole seconds, at least 1) becomes
 * the `Retry-After` header.
 */
export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, detail = 'Too many requests; retry after the time in Retry-After') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('rate_limited', detail, undefined, { 'Retry-After': String(seconds) });
    this.retryAfterSeconds = seconds;
  }
}

/** CONTRACT §3: a client told 503 retries after this many seconds. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER: ErrorHeaders = { 'Retry-After': '5' };

/** 503 `service_unavailable` with `Retry-After` (CONTRACT §3). */
export class ServiceUnavailableError extends DomainError {
  constructor(detail = 'The service cannot complete the request now; retry later', options?: { cause?: unknown }) {
    super('service_unavailable', detail, undefined, SERVICE_UNAVAILABLE_RETRY_AFTER);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/**
 * The database could not be reached, the connection was lost (before, during or at the commit of a
 * transaction), or the server refused or aborted the work for a transient reason. `cause` is the
 * driver's error, for the log.
 */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super(undefined, { cause });
  }
}

/**
 * A lock wait ran out (`lock_timeout`). To the client it is 503 like any other unavailability, except
 * where the caller knows what waited: `onClaim` is true when the wait was on the claim of an
 * idempotency key held by a concurrent request (CONTRACT §6: 409 in progress).
 */
export class LockTimeoutError extends ServiceUnavailableError {
  constructor(
    cause: unknown,
    readonly onClaim = false,
  ) {
    super(undefined, { cause });
  }
}

/**
 * A unique constraint refused a row. Repositories turn it into what it means (a code taken: a
 * ResourceConflictError); one nobody expected is a defect, so this is not a DomainError (500).
 */
export class UniqueViolationError extends Error {
  constructor(
    readonly table: string | undefined,
    readonly constraint: string | undefined,
    readonly cause: unknown,
  ) {
    super(`unique violation${table ? ` on ${table}` : ''}${constraint ? ` (${constraint})` : ''}`);
    this.name = 'UniqueViolationError';
  }
}

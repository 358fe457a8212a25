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

/**
 * The one error type domain and application code throw. `code` is the contract's stable code
 * (CONTRACT §4); the problem filter alone maps it to a status, so nothing here knows about HTTP.
 * `detail` reaches the caller verbatim, so it must never hold SQL, stack traces, internal ids the
 * caller did not send, or the name or owner of a foreign resource (CONTRACT §4).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly violations?: Violation[],
  ) {
    super(detail);
    // Subclasses show up under their own name in logs without repeating this line.
    this.name = new.target.name;
  }
}

import { ResourceConflictError, type Violation } from '../../../../shared/domain/errors';
import { isScope, type Scope } from '../../../../shared/domain/scopes';

/** seed 5.6 / CONTRACT §8: a customer grant lasts at most 90 days; also the default. */
export const MAX_GRANT_SECONDS = 7_776_000;
export const MAX_GRANT_ACCOUNTS = 1_000;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The well-formed ids among `accountIds`, lower-cased: the ones worth looking up. */
export function accountIdCandidates(accountIds: readonly unknown[]): string[] {
  return [...new Set(accountIds.filter((v): v is string => typeof v === 'string' && UUID.test(v)).map((v) => v.toLowerCase()))];
}

/**
 * CONTRACT §10: each selected account must be an account of the grant's organization (`existing`
 * holds the lower-cased ids found there), and the ids are distinct (an upper-case id names the same
 * account as its lower-case form, CONTRACT §5). One violation per offending item, at its own pointer;
 * the detail is the same whatever the cause, so a foreign id's owner is not revealed.
 */
export function accountIdViolations(accountIds: readonly unknown[], existing: ReadonlySet<string>): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  accountIds.forEach((v, i) => {
    const pointer = `/account_ids/${i}`;
    const id = typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : null;
    if (id === null || !existing.has(id)) {
      violations.push({ pointer, code: 'invalid_input', detail: 'is not an account of the organization' });
    } else if (seen.has(id)) {
      violations.push({ pointer, code: 'invalid_input', detail: 'repeats an earlier account id' });
    }
    if (id !== null) seen.add(id);
  });
  return violations;
}

/** CONTRACT §8/§10: each scope must be one of the known scopes, each named once. */
export function scopeViolations(scopes: readonly unknown[]): Violation[] {
  const seen = new Set<Scope>();
  const violations: Violation[] = [];
  scopes.forEach((v, i) => {
    const pointer = `/scopes/${i}`;
    if (!isScope(v)) violations.push({ pointer, code: 'invalid_input', detail: 'is not a known scope' });
    else if (seen.has(v)) violations.push({ pointer, code: 'invalid_input', detail: 'repeats an earlier scope' });
    else seen.add(v);
  });
  return violations;
}

/** When a grant given at `grantedAt` for `durationSeconds` ends. */
export function grantExpiry(grantedAt: Date, durationSeconds: number): Date {
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > MAX_GRANT_SECONDS) {
    throw new RangeError(`a grant lasts 1 to ${MAX_GRANT_SECONDS} seconds`);
  }
  return new Date(grantedAt.getTime() + durationSeconds * 1000);
}

/** CONTRACT §15: a grant to a demo company is refused for any app but its own developer's (409 resource_conflict). */
export class DemoCompanyOtherAppError extends ResourceConflictError {
  constructor() {
    super("A demo company grants access only to its own developer's apps");
  }
}

import { DomainError } from './domain-error';

/** The console's stops (CONTRACT §4, §10). Details name no resource the caller did not send. */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `No such ${what}`);
  }
}

export class ResourceConflictError extends DomainError {
  constructor(detail: string) {
    super('resource_conflict', detail);
  }
}

export class AppNotApprovedError extends DomainError {
  constructor() {
    super('app_not_approved', 'The app has no approved revision');
  }
}

/**
 * One error for every aal2 failure — no code, a code of the wrong type, a wrong, stale or used code,
 * a user who is not an owner of the organization — so that the answer does not tell them apart.
 */
export class Aal2RequiredError extends DomainError {
  constructor() {
    super('aal2_required', 'A current, unused one-time code of an owner of the organization is required');
  }
}

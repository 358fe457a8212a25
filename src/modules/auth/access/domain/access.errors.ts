import { DomainError } from '../../../../shared/domain/errors';

/** The 401/403 stops of CONTRACT §4 and §8. A rights stop is an error, never an empty result (seed 5.9). */
export class MissingTokenError extends DomainError {
  constructor() {
    super('missing_token', 'Send Authorization: Bearer <ACCESS_TOKEN>');
  }
}

export class InvalidTokenError extends DomainError {
  constructor() {
    super('invalid_token', 'The access token is not valid');
  }
}

export class TokenEnvironmentMismatchError extends DomainError {
  constructor(pathEnvironment: string) {
    super(
      'token_environment_mismatch',
      pathEnvironment === 'sandbox'
        ? 'The sandbox base path takes a sandbox token (hsk_…)'
        : 'The production base path takes a production access token (hat_…)',
    );
  }
}

export class GrantRevokedError extends DomainError {
  constructor() {
    super('grant_revoked', 'The customer grant of this token was revoked or superseded by a newer grant');
  }
}

export class GrantExpiredError extends DomainError {
  constructor() {
    super('grant_expired', 'The customer grant of this token has expired');
  }
}

export class AppRevisionChangedError extends DomainError {
  constructor() {
    super('app_revision_changed', "The app's approved revision is no longer the one this token was issued under");
  }
}

export class InsufficientScopeError extends DomainError {
  /** `scope`: the needed scope, or several separated by spaces when any one of them would do (RFC 6750 §3) */
  constructor(readonly scope: string) {
    super('insufficient_scope', scope.includes(' ') ? `This operation needs one of the scopes ${scope}` : `This operation needs the scope ${scope}`);
  }
}

export class MandateRequiredError extends DomainError {
  constructor() {
    super('mandate_required', 'Final posting needs an active posting mandate of the organization');
  }
}

/**
 * The ONE table from a stable error code to its HTTP status and title (CONTRACT §4). Anything not in
 * it is a defect and becomes 500 internal_error.
 */
export const ERROR_CATALOGUE: Record<string, { status: number; title: string }> = {
  invalid_input: { status: 400, title: 'The input failed validation' },
  invalid_amount: { status: 400, title: 'An amount is invalid' },
  idempotency_key_required: { status: 400, title: 'An Idempotency-Key header is required' },
  invalid_idempotency_key: { status: 400, title: 'The Idempotency-Key header is invalid' },
  missing_token: { status: 401, title: 'An access token is required' },
  invalid_token: { status: 401, title: 'The access token is invalid' },
  token_environment_mismatch: { status: 401, title: 'The access token is for another environment' },
  grant_revoked: { status: 403, title: 'The customer grant was revoked' },
  grant_expired: { status: 403, title: 'The customer grant has expired' },
  app_revision_changed: { status: 403, title: 'The app revision changed' },
  insufficient_scope: { status: 403, title: 'The access token lacks the required scope' },
  mandate_required: { status: 403, title: 'A posting mandate is required' },
  aal2_required: { status: 403, title: 'A current one-time code of an owner is required' },
  // CONTRACT §20 (version 6): a sandbox project's or demo organization's attachments would exceed SANDBOX_STORAGE_MAX_BYTES
  quota_exceeded: { status: 403, title: 'Quota exceeded' },
  not_found: { status: 404, title: 'Not found' },
  idempotency_key_reused: { status: 409, title: 'The idempotency key was used with another request' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this idempotency key is in progress' },
  idempotency_grant_changed: { status: 409, title: 'The customer grant changed since the idempotency key was used' },
  resource_conflict: { status: 409, title: 'The resource already exists' },
  app_not_approved: { status: 409, title: 'The app has no approved revision' },
  request_timeout: { status: 408, title: 'The request was not received in time' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The media type of the request body is not accepted' },
  journal_unbalanced: { status: 422, title: 'The journal does not balance' },
  reference_not_allowed: { status: 422, title: 'A reference is not allowed' },
  period_locked: { status: 422, title: 'The period is closed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'The service is unavailable' },
};

import { createHash } from 'node:crypto';
import type { AuthorizationRequest } from './consent.repository';

/**
 * CONTRACT §21 "One sign-in", a second tab: one session holds one authorization request, and a newer one
 * replaces it. Each form of the flow carries the tag of the request it was shown for, so that a form of
 * the replaced request (the first tab's) decides nothing instead of answering the newer request.
 */
export function requestTag(request: AuthorizationRequest): string {
  const { clientId, redirectUri, scopes, state, codeChallenge, organizationId } = request;
  return createHash('sha256')
    .update(JSON.stringify([clientId, redirectUri, scopes, state, codeChallenge, organizationId]))
    .digest('base64url')
    .slice(0, 22);
}

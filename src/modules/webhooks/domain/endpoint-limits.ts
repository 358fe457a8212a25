import { DomainError } from '../../../shared/domain/errors';

/**
 * Issue 35 (self-service must not amplify traffic): every event of an app and environment is sent to each
 * of its endpoints, so their number is what one write multiplies into. At most this many active endpoints
 * per app and environment, whoever registers them (console API, developer console).
 */
export const MAX_ENDPOINTS_PER_APP_ENVIRONMENT = 10;

/** 409 `resource_conflict` (as the 25-app cap): the app and environment already have the most endpoints. */
export class TooManyEndpointsError extends DomainError {
  constructor() {
    super('resource_conflict', `An app has at most ${MAX_ENDPOINTS_PER_APP_ENVIRONMENT} webhook endpoints per environment; delete one first`);
    this.because('webhookEndpoints.appFull', { max: MAX_ENDPOINTS_PER_APP_ENVIRONMENT });
  }
}

/**
 * 409 `resource_conflict`: the caller's scope (a developer's apps) already aims `max` endpoints at this
 * host. The detail names the host the caller sent, nothing else.
 */
export class TooManyEndpointsOnHostError extends DomainError {
  constructor(max: number, host: string) {
    super('resource_conflict', `At most ${max} webhook endpoints of one developer may point to one host (${host}); delete one first`);
    this.because('webhookEndpoints.hostFull', { max, host });
  }
}

/**
 * Where the cap per host applies: the apps of one developer (every one of them, sandbox and production),
 * `max` endpoints per host across them. `key` names the scope for its lock (the developer's id), so
 * that two registrations in one scope — on any instance — are counted one after the other.
 */
export interface HostScope {
  key: string;
  appIds: readonly string[];
  max: number;
}

/** The host an endpoint is counted under: the URL's host name, lower case, without a trailing dot (IPv6 in brackets). */
export function endpointHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

import type { Environment } from '../domain/caller-context';

/** The two base paths of the partner API (seed §4). The environment of a call is its path's. */
export const PRODUCTION_BASE = 'api/partner/v1';
export const SANDBOX_BASE = 'api/partner/sandbox/v1';
export const PARTNER_BASES = [PRODUCTION_BASE, SANDBOX_BASE];
/** What the paths of both bases (and only they) start with. */
export const PARTNER_PATH_PREFIX = '/api/partner/';

export function environmentOfPath(path: string): Environment {
  return path.startsWith(`/${SANDBOX_BASE}/`) || path === `/${SANDBOX_BASE}` ? 'sandbox' : 'production';
}

export function baseUrl(origin: string, environment: Environment): string {
  return `${origin}/${environment === 'sandbox' ? SANDBOX_BASE : PRODUCTION_BASE}`;
}

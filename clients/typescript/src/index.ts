import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './partner-api.js';

export type { components, paths } from './partner-api.js';
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

/**
 * A typed client of the partner API, generated from openapi/partner.json (`npm run openapi`).
 * `baseUrl`: the sandbox (`…/api/partner/sandbox/v1`) or production (`…/api/partner/v1`) base URL.
 */
export function createPartnerClient(baseUrl: string, token: string): Client<paths> {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}

import type { PurgeParts } from '../../../shared/database/purge-parts';
/**
 * SQL parts of the access module's table (access_tokens), for the statements of the modules that
 * issue tokens: the owner writes every word about its table. Imports nothing but src/shared
 * (docs/architecture.md).
 */
export const AccessSql = {
  /** A production token ($1 hash, $2 organization, $3 app, $4 grant, $5 app revision). */
  insertProductionToken: `INSERT INTO access_tokens (token_hash, environment, organization_id, app_id, grant_id, app_revision_id)
       VALUES ($1, 'production', $2, $3, $4, $5)`,
  /** Forgets the token $1 of the app $2 (a reused authorization code, /oauth/revoke); returns its grant_id (null for a sandbox token). */
  deleteTokenOfApp: `WITH deleted AS (DELETE FROM access_tokens WHERE token_hash = $1 AND app_id = $2 RETURNING grant_id) SELECT grant_id FROM deleted`,
  /** A sandbox token ($1 hash, $2 organization, $3 app, $4 generation). */
  insertSandboxToken: `INSERT INTO access_tokens (token_hash, environment, organization_id, app_id, generation_id)
       VALUES ($1, 'sandbox', $2, $3, $4)`,
} as const;

/** Issue 35: the access tokens of purged organizations and apps. */
export const AccessPurge: PurgeParts = {
  organizations: [`DELETE FROM access_tokens WHERE organization_id = ANY($1::uuid[])`],
  apps: [`DELETE FROM access_tokens WHERE app_id = ANY($1::uuid[])`],
};

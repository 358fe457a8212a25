import type { PurgeParts } from '../../../shared/database/purge-parts';

/**
 * SQL parts of the consent module's tables (oauth_clients, authorization_codes), for statements that other modules compose: the
 * owner writes every word about its tables, the composer only combines the parts. Imports nothing but
 * src/shared (docs/architecture.md).
 */
/** Issue 35: the authorization codes and OAuth clients of purged organizations and apps. */
export const ConsentPurge: PurgeParts = {
  organizations: [`DELETE FROM authorization_codes WHERE organization_id = ANY($1::uuid[])`],
  apps: [`DELETE FROM authorization_codes WHERE app_id = ANY($1::uuid[])`, `DELETE FROM oauth_clients WHERE app_id = ANY($1::uuid[])`],
};

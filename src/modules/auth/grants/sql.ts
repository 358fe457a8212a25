import type { PurgeParts } from '../../../shared/database/purge-parts';
import { raw, sql, type SqlExpr, type SqlFragment } from '../../../shared/database/sql-template';
/**
 * SQL parts of the grants module's tables (grants, grant_accounts, mandates), for statements that
 * other modules compose (one round trip): the owner writes every word about its tables, the composer
 * only combines the parts. Imports nothing but src/shared (docs/architecture.md).
 */
export const GrantsSql = {
  /**
   * Whether any grant or mandate (in force or not) names the app `appId` in an organization other than
   * those `exceptOrganizations` selects (expressions of the composing statement; e.g. the app's own
   * sandbox organization, whose mandate comes with the sandbox project).
   */
  anyForAppOutside: (appId: string, exceptOrganizations: string): string =>
    `(EXISTS (SELECT 1 FROM grants WHERE app_id = ${appId} AND organization_id NOT IN (${exceptOrganizations}))
      OR EXISTS (SELECT 1 FROM mandates WHERE app_id = ${appId} AND organization_id NOT IN (${exceptOrganizations})))`,
  /** Left-joins the grant (`organizationId`, `grantId`: expressions of the composing statement) as `alias`. */
  leftJoinGrant: (alias: string, organizationId: string, grantId: string): string =>
    `LEFT JOIN grants ${alias} ON ${alias}.organization_id = ${organizationId} AND ${alias}.id = ${grantId}`,
  /** Joins the grant (`organizationId`, `grantId`: expressions of the composing statement) as `alias`. */
  joinGrant: (alias: string, organizationId: string, grantId: string): string =>
    `JOIN grants ${alias} ON ${alias}.organization_id = ${organizationId} AND ${alias}.id = ${grantId}`,
  /** The joined grant's expiry (a column expression). */
  grantExpiresAt: (alias: string): string => `${alias}.expires_at`,
  /** The joined grant's state, as columns scopes, revoked_at, superseded_at, expires_at. */
  grantState: (alias: string): string => `${alias}.scopes, ${alias}.revoked_at, ${alias}.superseded_at, ${alias}.expires_at`,
  /** A scalar sub-select: the id of the mandate in force of (organization, app), or null. */
  mandateInForceId: (organizationId: string, appId: string): string => `SELECT m.id FROM mandates m
     WHERE m.organization_id = ${organizationId} AND m.app_id = ${appId} AND m.revoked_at IS NULL LIMIT 1`,
  /** A condition: the grant selected the account (all three are expressions of the composing statement). */
  grantSelectsAccount: (organizationId: SqlExpr, grantId: SqlExpr, accountId: SqlExpr, indent = ''): SqlFragment => sql`EXISTS (
${raw(indent)}      SELECT 1 FROM grant_accounts ga
${raw(indent)}       WHERE ga.organization_id = ${organizationId} AND ga.grant_id = ${grantId} AND ga.account_id = ${accountId})`,
  /** One row when the grant $1 exists. */
  grantExists: `SELECT 1 FROM grants WHERE id = $1 LIMIT 1`,
  /** One row when the mandate $1 exists. */
  mandateExists: `SELECT 1 FROM mandates WHERE id = $1 LIMIT 1`,
  /** Inserts a mandate in force ($1 organization, $2 id, $3 app). */
  insertMandate: `INSERT INTO mandates (organization_id, id, app_id) VALUES ($1, $2, $3)`,
} as const;

/** Issue 35: the grants and mandates of purged organizations and apps. */
export const GrantsPurge: PurgeParts = {
  organizations: [
    `DELETE FROM grant_accounts WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM grants WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM mandates WHERE organization_id = ANY($1::uuid[])`,
  ],
  apps: [
    `DELETE FROM grant_accounts ga USING grants g WHERE ga.organization_id = g.organization_id AND ga.grant_id = g.id AND g.app_id = ANY($1::uuid[])`,
    `DELETE FROM grants WHERE app_id = ANY($1::uuid[])`,
    `DELETE FROM mandates WHERE app_id = ANY($1::uuid[])`,
  ],
};

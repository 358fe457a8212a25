import type { PurgeParts } from '../../../shared/database/purge-parts';
import { sql, type SqlExpr, type SqlFragment } from '../../../shared/database/sql-template';
/**
 * SQL parts of the apps module's tables (apps, app_revisions), for statements that other modules
 * compose (one round trip): the owner writes every word about its tables, the composer only combines
 * the parts. Imports nothing but src/shared (docs/architecture.md).
 */
export const AppsSql = {
  /** Whether the app `appId` (an expression of the composing statement) has ever had a revision approved. */
  everApproved: (appId: string): string => `EXISTS (SELECT 1 FROM app_revisions WHERE app_id = ${appId} AND approved_at IS NOT NULL)`,
  /** Joins the app `appId` (an expression of the composing statement) as `alias`. */
  joinApp: (alias: string, appId: string): string => `JOIN apps ${alias} ON ${alias}.id = ${appId}`,
  /** The joined app's approved revision (null before any approval). */
  approvedRevisionId: (alias: string): string => `${alias}.approved_revision_id`,
  /**
   * One row while the app `appId`'s approved revision is `revisionId` (expressions of the composing
   * statement) and `condition` holds, the app row locked FOR SHARE: an approval committed after the
   * statement began is seen there (READ COMMITTED re-checks a row it locks on its latest version).
   * A null `revisionId` (a demo company's token issued before any approval, CONTRACT §15) matches an
   * app with none approved.
   */
  lockApprovedRevision: (appId: SqlExpr, revisionId: SqlExpr, condition: SqlFragment): SqlFragment =>
    sql`SELECT 1 FROM apps a WHERE a.id = ${appId} AND a.approved_revision_id IS NOT DISTINCT FROM ${revisionId} AND ${condition} FOR SHARE OF a`,
  /** One row while the app $1's approved revision is $2 (null: none approved, as above). */
  approvedRevisionIs: `SELECT 1 FROM apps WHERE id = $1 AND approved_revision_id IS NOT DISTINCT FROM $2::uuid`,
  /** One row when the app $1 exists. */
  appExists: `SELECT 1 FROM apps WHERE id = $1`,
  /** One row when $2 is the app $1's revision $1… ($1 = revision id, $2 = app id). */
  revisionOfAppExists: `SELECT 1 FROM app_revisions WHERE id = $1 AND app_id = $2`,
  /** The app $1's revisions (id, number, approved), by number. */
  revisionsOfApp: `SELECT id, number, approved_at IS NOT NULL AS approved FROM app_revisions WHERE app_id = $1 ORDER BY number`,
  /** The app `appId`'s name now (an expression of the composing statement): who registered an entry (CONTRACT §19). */
  nameOf: (appId: SqlExpr): SqlFragment => sql`SELECT name FROM apps WHERE id = ${appId}`,
  /** Inserts the app ($1 id, $2 name). */
  insertApp: `INSERT INTO apps (id, name) VALUES ($1, $2)`,
} as const;

/** Issue 35: purged apps themselves (and their revisions). */
export const AppsPurge: PurgeParts = {
  apps: [`DELETE FROM app_revisions WHERE app_id = ANY($1::uuid[])`, `DELETE FROM apps WHERE id = ANY($1::uuid[])`],
};

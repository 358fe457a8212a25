import type { PurgeParts } from '../../../shared/database/purge-parts';
import { raw, sql, type SqlExpr, type SqlFragment } from '../../../shared/database/sql-template';
/**
 * SQL parts of the sandbox module's tables (sandbox_projects, sandbox_generations), for statements
 * that other modules compose (one round trip): the owner writes every word about its tables, the
 * composer only combines the parts. Imports nothing but src/shared (docs/architecture.md).
 */
/**
 * The generation `sg` works for project `p`: it is the current one, or the previous one while the
 * developer chose to keep it working (CONTRACT §21: 1 hour or 24 hours after **New sandbox token**).
 */
const generationWorks = (p: string): string =>
  `(${p}.current_generation_id = sg.id OR (${p}.previous_generation_id = sg.id AND ${p}.previous_generation_until > now()))`;

export const SandboxSql = {
  /** Left-joins the generation `generationId` and its project as `projectAlias`. */
  leftJoinProjectOfGeneration: (projectAlias: string, generationId: string): string =>
    `LEFT JOIN sandbox_generations sg ON sg.id = ${generationId}
    LEFT JOIN sandbox_projects ${projectAlias} ON ${projectAlias}.id = sg.project_id`,
  /**
   * The joined project's current generation — or the joined generation itself while it is the previous
   * one still working (CONTRACT §21), which a token of it is then as good as.
   */
  currentGenerationId: (projectAlias: string): string =>
    `CASE WHEN ${generationWorks(projectAlias)} THEN sg.id ELSE ${projectAlias}.current_generation_id END AS current_generation_id`,
  /**
   * One row while the generation `generationId` (an expression of the composing statement) is its
   * project's current one and `condition` holds, the project row locked FOR SHARE: a new generation
   * committed after the statement began is seen there (READ COMMITTED re-checks a locked row's latest version).
   */
  lockCurrentGeneration: (generationId: SqlExpr, condition: SqlFragment): SqlFragment =>
    sql`SELECT 1 FROM sandbox_generations sg JOIN sandbox_projects sp ON sp.id = sg.project_id
      WHERE sg.id = ${generationId} AND ${raw(generationWorks('sp'))} AND ${condition} FOR SHARE OF sp`,
  /** One row while the generation $1 is its project's current one (or the previous one still working). */
  generationIsCurrent: `SELECT 1 FROM sandbox_generations sg JOIN sandbox_projects sp ON sp.id = sg.project_id
      WHERE sg.id = $1 AND ${generationWorks('sp')}`,
  /** One row when the sandbox project $1 exists. */
  projectExists: `SELECT 1 FROM sandbox_projects WHERE id = $1`,
} as const;

/** Issue 35: the sandbox projects (and their generations) of purged organizations and apps. */
export const SandboxPurge: PurgeParts = {
  organizations: [
    `DELETE FROM sandbox_generations g USING sandbox_projects p WHERE g.project_id = p.id AND p.organization_id = ANY($1::uuid[])`,
    `DELETE FROM sandbox_projects WHERE organization_id = ANY($1::uuid[])`,
  ],
  apps: [
    `DELETE FROM sandbox_generations g USING sandbox_projects p WHERE g.project_id = p.id AND p.app_id = ANY($1::uuid[])`,
    `DELETE FROM sandbox_projects WHERE app_id = ANY($1::uuid[])`,
  ],
};

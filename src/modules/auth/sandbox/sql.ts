import type { PurgeParts } from '../../../shared/database/purge-parts';
/**
 * SQL parts of the sandbox module's tables (sandbox_projects, sandbox_generations), for statements
 * that other modules compose (one round trip): the owner writes every word about its tables, the
 * composer only combines the parts. Imports nothing but src/shared (docs/architecture.md).
 */
export const SandboxSql = {
  /** Left-joins the generation `generationId` and its project as `projectAlias`. */
  leftJoinProjectOfGeneration: (projectAlias: string, generationId: string): string =>
    `LEFT JOIN sandbox_generations sg ON sg.id = ${generationId}
    LEFT JOIN sandbox_projects ${projectAlias} ON ${projectAlias}.id = sg.project_id`,
  /** The joined project's current generation. */
  currentGenerationId: (projectAlias: string): string => `${projectAlias}.current_generation_id`,
  /**
   * One row while the generation `generationId` (an expression of the composing statement) is its
   * project's current one and `condition` holds, the project row locked FOR SHARE: a new generation
   * committed after the statement began is seen there (READ COMMITTED re-checks a locked row's latest version).
   */
  lockCurrentGeneration: (generationId: string, condition: string): string =>
    `SELECT 1 FROM sandbox_generations sg JOIN sandbox_projects sp ON sp.id = sg.project_id
      WHERE sg.id = ${generationId} AND sp.current_generation_id = sg.id AND ${condition} FOR SHARE OF sp`,
  /** One row while the generation $1 is its project's current one. */
  generationIsCurrent: `SELECT 1 FROM sandbox_generations sg JOIN sandbox_projects sp ON sp.id = sg.project_id
      WHERE sg.id = $1 AND sp.current_generation_id = sg.id`,
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

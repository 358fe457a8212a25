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
  /** One row when the sandbox project $1 exists. */
  projectExists: `SELECT 1 FROM sandbox_projects WHERE id = $1`,
} as const;

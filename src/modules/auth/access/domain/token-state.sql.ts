import type { SqlExpr, SqlFragment } from '../../../../shared/database/sql-template';

/**
 * Ports: the SQL parts of a token's state that live in the tables of the modules that issue tokens —
 * grants (a production token's grant, its accounts, the mandate) and sandbox (a sandbox token's
 * generation). The token look-up composes them into its one statement, and grants' write gate the
 * generation's; grants and sandbox, which build on access (they issue its tokens), bind them to their own
 * sql.ts (`GrantTokenSqlModule`, `SandboxTokenSqlModule`: global, imported by GrantsModule and
 * SandboxModule), so access imports neither. A part that takes a value takes an SqlExpr and returns a
 * fragment of the SQL template (docs/architecture.md, One SQL style); the others are plain SQL text. The
 * composed statements are the same named prepared statements as before.
 */
export abstract class GrantTokenSql {
  /** A scalar sub-select: the id of the mandate in force of (organization, app), or null. */
  abstract mandateInForceId(organizationId: string, appId: string): string;
  /** A condition: the grant selected the account (all three are expressions of the composing statement). */
  abstract grantSelectsAccount(organizationId: SqlExpr, grantId: SqlExpr, accountId: SqlExpr, indent?: string): SqlFragment;
  /** The joined grant's state, as columns scopes, revoked_at, superseded_at, expires_at. */
  abstract grantState(alias: string): string;
  /** Left-joins the grant (`organizationId`, `grantId`: expressions of the composing statement) as `alias`. */
  abstract leftJoinGrant(alias: string, organizationId: string, grantId: string): string;
}

export abstract class SandboxTokenSql {
  /** The joined project's current generation (or the joined one while it is the previous one still working), as `current_generation_id`. */
  abstract currentGenerationId(projectAlias: string): string;
  /** Left-joins the generation `generationId` (as `sg`) and its project as `projectAlias`. */
  abstract leftJoinProjectOfGeneration(projectAlias: string, generationId: string): string;
  /** One row while the generation `generationId` is its project's current one and `condition` holds, the project row locked FOR SHARE. */
  abstract lockCurrentGeneration(generationId: SqlExpr, condition: SqlFragment): SqlFragment;
  /** One row while the generation $1 is its project's current one (or the previous one still working). */
  abstract readonly generationIsCurrent: string;
}

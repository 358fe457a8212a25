import type { PurgeParts } from '../../../shared/database/purge-parts';
import { raw, sql, type SqlExpr, type SqlFragment } from '../../../shared/database/sql-template';
/**
 * SQL parts of the organizations module's tables (organizations, accounts, tax_codes, users,
 * organization_owners, second_factor_*), for statements that other modules compose (one round trip):
 * the owner writes every word about its tables, the composer only combines the parts. Imports nothing
 * but src/shared (docs/architecture.md).
 */
/**
 * CONTRACT §7 (version 5): accounts are listed by number in natural order — runs of digits compare as
 * numbers (1000, 7000, 12000), the order an accountant reads a chart in — then by id. The ONE ordering of
 * every account list (partner reads, console reads, consent form, developer console);
 * `natural_sort_key` is the schema's (migration 1766430000000).
 */
const accountOrder = (alias: string): string => `natural_sort_key(${alias}.number) COLLATE "C", ${alias}.number COLLATE "C", ${alias}.id`;

export const OrganizationsSql = {
  /** The ORDER BY items of an account list over the accounts row `alias`. */
  accountOrder,
  /**
   * The ids of the organization's active accounts among `ids` (a uuid[] expression) for which
   * `permitted(accountId)` holds; `select` goes before the id column (e.g. a constant column).
   */
  activeAccountIds: (p: {
    alias: string;
    select?: string;
    organizationId: SqlExpr;
    ids: SqlExpr;
    indent?: string;
    permitted: (accountId: SqlFragment) => SqlFragment;
  }): SqlFragment => {
    const [i, a] = [raw(p.indent ?? ''), raw(p.alias)];
    return sql`SELECT ${raw(p.select ?? '')}${a}.id FROM accounts ${a}
${i}     WHERE ${a}.organization_id = ${p.organizationId} AND ${a}.id = ANY(${p.ids}) AND ${a}.active
${i}       AND (${p.permitted(raw(`${p.alias}.id`))})`;
  },
  /** The ids of the organization's tax codes among `ids` (a uuid[] expression); `select` as above. */
  taxCodeIds: (p: { alias: string; select?: string; organizationId: SqlExpr; ids: SqlExpr }): SqlFragment => {
    const a = raw(p.alias);
    return sql`SELECT ${raw(p.select ?? '')}${a}.id FROM tax_codes ${a} WHERE ${a}.organization_id = ${p.organizationId} AND ${a}.id = ANY(${p.ids})`;
  },
  /** The organization's row, locked FOR KEY SHARE (as a foreign key check locks it), as column id. */
  keyShareLock: (organizationId: SqlExpr): SqlFragment => sql`SELECT id FROM organizations WHERE id = ${organizationId} FOR KEY SHARE`,
  /** One row when the organization $1 exists. */
  organizationExists: `SELECT 1 FROM organizations WHERE id = $1`,
  /** One row when a user $1 exists. */
  userExists: `SELECT 1 FROM users WHERE id = $1`,
  /** One row when an account $1 exists (in any organization). */
  accountExists: `SELECT 1 FROM accounts WHERE id = $1 LIMIT 1`,
  /** The user $1's email. */
  userEmail: `SELECT email FROM users WHERE id = $1`,
  /**
   * The users (id, password_hash) who may be signing in with the e-mail $1, matched without regard to
   * case, oldest first: the operator's owner, and a developer's demo identity (CONTRACT §15) whose
   * password is the developer's — `developerPassword(developerId)` is that hash's scalar sub-select
   * (the developers module's part). At most two.
   */
  usersSigningIn: (developerPassword: (developerId: string) => string): string =>
    `SELECT u.id, CASE WHEN u.developer_id IS NULL THEN u.password_hash ELSE ${developerPassword('u.developer_id')} END AS password_hash
       FROM users u WHERE lower(u.email) = lower($1) ORDER BY u.created_at, u.id LIMIT 2`,
  /** The organizations (id, name, environment, demo) that the user $1 owns, by name. */
  organizationsOwnedBy: `SELECT g.id, g.name, g.environment, g.demo FROM organization_owners o JOIN organizations g ON g.id = o.organization_id
        WHERE o.user_id = $1 ORDER BY g.name, g.id`,
  /** Whether the organization `organizationId` (an expression of the composing statement) is a demo company (CONTRACT §15), as a scalar sub-select. */
  isDemo: (organizationId: SqlExpr): SqlFragment => sql`(SELECT g.demo FROM organizations g WHERE g.id = ${organizationId})`,
  /** One row when the user $2 owns the organization $1. */
  isOwner: `SELECT 1 FROM organization_owners WHERE organization_id = $1 AND user_id = $2`,
  /**
   * The organization's active accounts (id, number, name) for which `permitted(accountId)` holds, by
   * number (CONTRACT §7 `GET /accounts`).
   */
  permittedActiveAccounts: (p: { organizationId: SqlExpr; permitted: (accountId: SqlFragment) => SqlFragment }): SqlFragment =>
    sql`SELECT a.id, a.number, a.name FROM accounts a
       WHERE a.organization_id = ${p.organizationId} AND a.active AND (${p.permitted(raw('a.id'))})
       ORDER BY ${raw(accountOrder('a'))}`,
  /** The organization $1's tax codes (id, code, rate_basis_points), by code (CONTRACT §7 `GET /tax-codes`). */
  taxCodesOf: `SELECT id, code, rate_basis_points FROM tax_codes WHERE organization_id = $1 ORDER BY code COLLATE "C", id`,
  /** Joins the account (`organizationId`, `accountId`: expressions of the composing statement) as `alias`. */
  joinAccount: (alias: string, organizationId: string, accountId: string): string =>
    `JOIN accounts ${alias} ON ${alias}.organization_id = ${organizationId} AND ${alias}.id = ${accountId}`,
  /** The organization $1's active accounts (id, number, name), by number. */
  activeAccountsOf: `SELECT a.id, a.number, a.name FROM accounts a WHERE a.organization_id = $1 AND a.active ORDER BY ${accountOrder('a')}`,
  /** Inserts a sandbox organization ($1 id, $2 name). */
  insertSandboxOrganization: `INSERT INTO organizations (id, name, environment) VALUES ($1, $2, 'sandbox')`,
  /** Inserts the organization $1's accounts ($2 ids, $3 numbers, $4 names). */
  insertAccounts: `INSERT INTO accounts (organization_id, id, number, name)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::text[])`,
  /** Inserts the organization $1's tax codes ($2 ids, $3 codes, $4 rates in basis points). */
  insertTaxCodes: `INSERT INTO tax_codes (organization_id, id, code, rate_basis_points)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::int[])`,
} as const;

/**
 * Issue 35: purged organizations themselves (their chart, tax codes and owners' memberships). Users
 * stay, except a developer's demo identity (CONTRACT §15), which owns nothing but the developer's demo
 * company and goes with it (the statement sees the memberships as they were before it).
 */
export const OrganizationsPurge: PurgeParts = {
  organizations: [
    `DELETE FROM accounts WHERE organization_id = ANY($1::uuid[])`,
    `DELETE FROM tax_codes WHERE organization_id = ANY($1::uuid[])`,
    `WITH gone AS (DELETE FROM organization_owners WHERE organization_id = ANY($1::uuid[]) RETURNING user_id)
     DELETE FROM users u WHERE u.developer_id IS NOT NULL AND u.id IN (SELECT user_id FROM gone)
        AND NOT EXISTS (SELECT 1 FROM organization_owners o WHERE o.user_id = u.id AND NOT o.organization_id = ANY($1::uuid[]))`,
    `DELETE FROM organizations WHERE id = ANY($1::uuid[])`,
  ],
};

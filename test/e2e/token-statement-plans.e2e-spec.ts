import { Pool } from 'pg';
import { PgAccessRepository } from '../../src/modules/auth/access/infrastructure/pg-access.repository';
import { NamedStatementClient } from '../../src/shared/performance/named-statement-client';
import { PgPool, type PoolDriver } from '../../src/shared/database/pg-pool';
import { Sql } from '../../src/shared/database/sql';
import type { AccessLookups } from '../../src/shared/domain/caller-context';
import { aSandboxProject } from '../support/fixtures';
import { aProductionAccess } from '../support/production-fixtures';
import { hashAccessToken } from '../../src/modules/auth/access/domain/access-token';
import { GrantsSql } from '../../src/modules/auth/grants/sql';
import { SandboxSql } from '../../src/modules/auth/sandbox/sql';
import { withNewDatabase } from '../support/new-database';
import { createTestApp, itOnPostgres } from '../support/test-app';

/**
 * Not through HTTP: the token look-up of every request, on one pooled connection configured as the
 * service's (named statements), against a NEW database — migrated and provisioned by the service, its
 * small tables never analyzed, as on a fresh deployment and in the yardstick.
 *
 * The bug: one statement text held every optional part behind a CASE on its parameter. PostgreSQL
 * costed its generic plan with all parts in it, judged it dearer than a custom plan for a create or a
 * replay, and so planned the statement again on every call (0.4–1 ms of planning per request; product
 * creates at half the rate): 32 of these 80 calls were planned anew. PostgreSQL counts, per prepared
 * statement, how often it used each plan.
 */
describe('the token statement on a new PostgreSQL database', () => {
  itOnPostgres(
    'is planned generically after five calls, for every combination of look-ups',
    async () => {
      await withNewDatabase('plans', async (url) => {
        const app = await createTestApp({ database: { kind: 'postgres', url } });
        const [project, production] = await Promise.all([aSandboxProject(app), aProductionAccess(app)]).finally(() => app.close());

        const pool = new Pool({ connectionString: url, max: 1, Client: NamedStatementClient });
        try {
          const sql = new Sql(new PgPool('postgres', pool as unknown as PoolDriver, () => pool.end()));
          const repository = new PgAccessRepository(sql, GrantsSql, SandboxSql);
          const tokens = {
            sandbox: { hash: hashAccessToken(project.token), organizationId: project.organization_id, accounts: project.accounts.slice(0, 2).map((a) => a.id) },
            production: {
              hash: hashAccessToken(production.token),
              organizationId: production.organization.id,
              accounts: production.grantedAccountIds.slice(0, 2),
            },
          };

          for (const environment of ['sandbox', 'production'] as const) {
            const { hash, organizationId, accounts } = tokens[environment];
            for (let shape = 0; shape < 8; shape++) {
              const lookups: AccessLookups = {
                mandate: (shape & 1) !== 0,
                references: (shape & 2) !== 0 ? { accountIds: accounts, taxCodeIds: [] } : null,
                idempotencyKey: (shape & 4) !== 0 ? 'plans-key' : null,
              };
              for (let call = 0; call < 10; call++) {
                const token = await repository.findToken(hash, environment, lookups);
                expect(token).toMatchObject({ environment, organizationId });
                if (environment === 'production') expect(token!.grant).toMatchObject({ revokedAt: null, supersededAt: null });
                else expect(token!.currentGenerationId).toBe(token!.generationId);
                if (lookups.references) expect([...token!.prefetched.references!.usableAccounts].sort()).toEqual([...accounts].sort());
                if (lookups.idempotencyKey) expect(token!.prefetched.idempotency).toEqual({ key: 'plans-key', record: null });
              }
            }
          }

          const statements = await sql.query<{ statement: string; generic_plans: string; custom_plans: string }>(
            `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%FROM access_tokens%'`,
            [],
          );
          const plans = statements.map((s) => ({ generic: Number(s.generic_plans), custom: Number(s.custom_plans) }));
          // 160 calls in all (16 texts: 8 combinations of look-ups, 2 environments). PostgreSQL plans each
          // statement text anew for its first five calls, then decides: here every text must have taken
          // its generic plan for every call after the fifth.
          expect(plans.reduce((n, p) => n + p.generic + p.custom, 0)).toBe(160);
          expect(plans).toHaveLength(16);
          for (const p of plans) expect(p.custom).toBe(5);
        } finally {
          await pool.end();
        }
      });
    },
    180_000,
  );
});

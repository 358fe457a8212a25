import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Environment } from '../../../../shared/domain/caller-context';
import { OrganizationRepository } from '../domain/organization.repository';
import { OrganizationsSql } from '../sql';

@Injectable()
export class PgOrganizationRepository extends OrganizationRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async count(): Promise<number> {
    const [{ count }] = await this.dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM organizations`);
    return count;
  }

  async create(m: EntityManager, o: { id: string; name: string; environment: Environment; demo?: boolean }): Promise<void> {
    await m.query(`INSERT INTO organizations (id, name, environment, demo) VALUES ($1, $2, $3, $4)`, [o.id, o.name, o.environment, o.demo === true]);
  }

  async createChart(
    m: EntityManager,
    organizationId: string,
    accounts: ReadonlyArray<{ id: string; number: string; name: string }>,
    taxCodes: ReadonlyArray<{ id: string; code: string; rateBasisPoints: number }>,
  ): Promise<void> {
    await m.query(OrganizationsSql.insertAccounts, [organizationId, accounts.map((a) => a.id), accounts.map((a) => a.number), accounts.map((a) => a.name)]);
    await m.query(OrganizationsSql.insertTaxCodes, [
      organizationId,
      taxCodes.map((t) => t.id),
      taxCodes.map((t) => t.code),
      taxCodes.map((t) => t.rateBasisPoints),
    ]);
  }

  async lock(m: EntityManager, organizationId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT id FROM organizations WHERE id = $1 FOR NO KEY UPDATE`, [organizationId]);
    return rows.length > 0;
  }

  async createAccount(m: EntityManager, organizationId: string, a: { id: string; number: string; name: string }): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO accounts (organization_id, id, number, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, number) DO NOTHING RETURNING id`,
      [organizationId, a.id, a.number, a.name],
    );
    return rows.length > 0;
  }

  async deactivateAccount(m: EntityManager, accountId: string): Promise<string | null> {
    // a CTE, so that both stores answer with rows (TypeORM wraps a bare UPDATE's result differently)
    const rows: Array<{ id: string }> = await m.query(
      `WITH changed AS (UPDATE accounts SET active = false WHERE id = $1 RETURNING id) SELECT id FROM changed`,
      [accountId],
    );
    return rows[0]?.id ?? null;
  }

  async createTaxCode(m: EntityManager, organizationId: string, t: { id: string; code: string; rateBasisPoints: number }): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO tax_codes (organization_id, id, code, rate_basis_points) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, code) DO NOTHING RETURNING id`,
      [organizationId, t.id, t.code, t.rateBasisPoints],
    );
    return rows.length > 0;
  }

  async existingAccountIds(m: EntityManager, organizationId: string, accountIds: string[]): Promise<Set<string>> {
    if (accountIds.length === 0) return new Set();
    const rows: Array<{ id: string }> = await m.query(`SELECT id FROM accounts WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
      organizationId,
      accountIds,
    ]);
    return new Set(rows.map((r) => r.id));
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OrganizationReadRepository, type OrganizationView } from '../domain/organization-read.repository';
import { OrganizationsSql } from '../sql';

@Injectable()
export class PgOrganizationReadRepository extends OrganizationReadRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async organization(organizationId: string): Promise<OrganizationView | null> {
    const [org]: Array<{ id: string; name: string; demo: boolean }> = await this.dataSource.query(
      `SELECT id::text AS id, name, demo FROM organizations WHERE id = $1`,
      [organizationId],
    );
    if (!org) return null;
    const accounts: Array<{ id: string; number: string; name: string; active: boolean }> = await this.dataSource.query(
      `SELECT a.id::text AS id, a.number, a.name, a.active FROM accounts a WHERE a.organization_id = $1 ORDER BY ${OrganizationsSql.accountOrder('a')}`,
      [organizationId],
    );
    const taxCodes: Array<{ id: string; code: string; rate_basis_points: number }> = await this.dataSource.query(
      `SELECT id::text AS id, code, rate_basis_points FROM tax_codes WHERE organization_id = $1 ORDER BY code, id`,
      [organizationId],
    );
    const owners: Array<{ user_id: string; email: string }> = await this.dataSource.query(
      `SELECT u.id::text AS user_id, u.email FROM organization_owners o JOIN users u ON u.id = o.user_id
        WHERE o.organization_id = $1 ORDER BY u.email, u.id`,
      [organizationId],
    );
    return {
      id: org.id,
      name: org.name,
      demo: org.demo === true,
      accounts: accounts.map((a) => ({ id: a.id, number: a.number, name: a.name, active: a.active })),
      tax_codes: taxCodes.map((t) => ({ id: t.id, code: t.code, rate_basis_points: Number(t.rate_basis_points) })),
      owners,
    };
  }

  async ownedBy(m: EntityManager, userId: string): Promise<Array<{ id: string; name: string }>> {
    const rows: Array<{ id: string; name: string }> = await m.query(OrganizationsSql.organizationsOwnedBy, [userId]);
    return rows.map((r) => ({ id: r.id, name: r.name }));
  }

  async accounts(
    m: EntityManager,
    organizationIds: string[],
    accountIds: string[],
  ): Promise<Array<{ organizationId: string; id: string; number: string; name: string }>> {
    if (accountIds.length === 0) return [];
    const rows: Array<{ organization_id: string; id: string; number: string; name: string }> = await m.query(
      `SELECT ac.organization_id, ac.id, ac.number, ac.name
         FROM unnest($1::uuid[], $2::uuid[]) AS k (organization_id, id)
         JOIN accounts ac ON ac.organization_id = k.organization_id AND ac.id = k.id
        ORDER BY ${OrganizationsSql.accountOrder('ac')}`,
      [organizationIds, accountIds],
    );
    return rows.map((r) => ({ organizationId: r.organization_id, id: r.id, number: r.number, name: r.name }));
  }
}

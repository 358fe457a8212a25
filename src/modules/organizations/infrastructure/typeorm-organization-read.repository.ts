import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrganizationReadRepository, type OrganizationView } from '../domain/organization-read.repository';

@Injectable()
export class TypeOrmOrganizationReadRepository extends OrganizationReadRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async organization(organizationId: string): Promise<OrganizationView | null> {
    const [org]: Array<{ id: string; name: string }> = await this.dataSource.query(
      `SELECT id::text AS id, name FROM organizations WHERE id = $1`,
      [organizationId],
    );
    if (!org) return null;
    const accounts: Array<{ id: string; number: string; name: string; active: boolean }> = await this.dataSource.query(
      `SELECT id::text AS id, number, name, active FROM accounts WHERE organization_id = $1 ORDER BY number, id`,
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
      accounts: accounts.map((a) => ({ id: a.id, number: a.number, name: a.name, active: a.active })),
      tax_codes: taxCodes.map((t) => ({ id: t.id, code: t.code, rate_basis_points: Number(t.rate_basis_points) })),
      owners,
    };
  }
}

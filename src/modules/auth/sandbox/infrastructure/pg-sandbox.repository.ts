import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessSql } from '../../access/sql';
import { AppsSql } from '../../apps/sql';
import { GrantsSql } from '../../grants/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { SandboxRepository, type SandboxProjectPlan } from '../domain/sandbox.repository';

@Injectable()
export class PgSandboxRepository extends SandboxRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async firstProjectId(): Promise<string | null> {
    const [project] = await this.dataSource.query<Array<{ id: string }>>(`SELECT id FROM sandbox_projects ORDER BY created_at LIMIT 1`);
    return project ? project.id : null;
  }

  async createProject(m: EntityManager, p: SandboxProjectPlan): Promise<void> {
    await m.query(OrganizationsSql.insertSandboxOrganization, [p.organizationId, p.name]);
    await m.query(OrganizationsSql.insertAccounts, [
      p.organizationId,
      p.accounts.map((a) => a.id),
      p.accounts.map((a) => a.number),
      p.accounts.map((a) => a.name),
    ]);
    await m.query(OrganizationsSql.insertTaxCodes, [
      p.organizationId,
      p.taxCodes.map((t) => t.id),
      p.taxCodes.map((t) => t.code),
      p.taxCodes.map((t) => t.rateBasisPoints),
    ]);
    if (p.newApp) await m.query(AppsSql.insertApp, [p.appId, `${p.name} (sandbox app)`]);
    await m.query(`INSERT INTO sandbox_projects (id, name, organization_id, app_id) VALUES ($1, $2, $3, $4)`, [p.projectId, p.name, p.organizationId, p.appId]);
    await m.query(GrantsSql.insertMandate, [p.organizationId, p.mandateId, p.appId]);
    await this.createGeneration(m, p.projectId, p.generationId, p.tokenHash);
  }

  async createGeneration(
    m: EntityManager,
    projectId: string,
    generationId: string,
    tokenHash: string,
    keepPreviousSeconds = 0,
  ): Promise<{ previousUntil: Date | null } | null> {
    const projects: Array<{ organization_id: string; app_id: string }> = await m.query(
      `SELECT organization_id, app_id FROM sandbox_projects WHERE id = $1 FOR UPDATE`,
      [projectId],
    );
    const project = projects[0];
    if (!project) return null;
    await m.query(`INSERT INTO sandbox_generations (id, project_id) VALUES ($1, $2)`, [generationId, projectId]);
    // CONTRACT §21: the replaced generation keeps working as long as the developer chose (the database's clock, as the access check reads it)
    const kept: Array<{ until: Date | null }> = await m.query(
      `WITH made AS (
         UPDATE sandbox_projects SET
                previous_generation_id = CASE WHEN $3::int > 0 THEN current_generation_id END,
                previous_generation_until = CASE WHEN $3::int > 0 AND current_generation_id IS NOT NULL THEN now() + make_interval(secs => $3::int) END,
                current_generation_id = $2
          WHERE id = $1 RETURNING previous_generation_until AS until)
       SELECT until FROM made`,
      [projectId, generationId, keepPreviousSeconds],
    );
    await m.query(AccessSql.insertSandboxToken, [tokenHash, project.organization_id, project.app_id, generationId]);
    return { previousUntil: kept[0]?.until ? new Date(kept[0].until) : null };
  }
}

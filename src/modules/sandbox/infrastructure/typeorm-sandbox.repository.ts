import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SandboxRepository, type SandboxProjectPlan } from '../domain/sandbox.repository';

@Injectable()
export class TypeOrmSandboxRepository extends SandboxRepository {
  async createProject(m: EntityManager, p: SandboxProjectPlan): Promise<void> {
    await m.query(`INSERT INTO organizations (id, name, environment) VALUES ($1, $2, 'sandbox')`, [p.organizationId, p.name]);
    await m.query(
      `INSERT INTO accounts (organization_id, id, number, name)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::text[])`,
      [p.organizationId, p.accounts.map((a) => a.id), p.accounts.map((a) => a.number), p.accounts.map((a) => a.name)],
    );
    await m.query(
      `INSERT INTO tax_codes (organization_id, id, code, rate_basis_points)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::int[])`,
      [p.organizationId, p.taxCodes.map((t) => t.id), p.taxCodes.map((t) => t.code), p.taxCodes.map((t) => t.rateBasisPoints)],
    );
    await m.query(`INSERT INTO apps (id, name) VALUES ($1, $2)`, [p.appId, `${p.name} (sandbox app)`]);
    await m.query(`INSERT INTO sandbox_projects (id, name, organization_id, app_id) VALUES ($1, $2, $3, $4)`, [
      p.projectId,
      p.name,
      p.organizationId,
      p.appId,
    ]);
    await m.query(`INSERT INTO mandates (organization_id, id, app_id) VALUES ($1, $2, $3)`, [p.organizationId, p.mandateId, p.appId]);
    await this.createGeneration(m, p.projectId, p.generationId, p.tokenHash);
  }

  async createGeneration(m: EntityManager, projectId: string, generationId: string, tokenHash: string): Promise<boolean> {
    const projects: Array<{ organization_id: string; app_id: string }> = await m.query(
      `SELECT organization_id, app_id FROM sandbox_projects WHERE id = $1 FOR UPDATE`,
      [projectId],
    );
    const project = projects[0];
    if (!project) return false;
    await m.query(`INSERT INTO sandbox_generations (id, project_id) VALUES ($1, $2)`, [generationId, projectId]);
    await m.query(`UPDATE sandbox_projects SET current_generation_id = $2 WHERE id = $1`, [projectId, generationId]);
    await m.query(
      `INSERT INTO access_tokens (token_hash, environment, organization_id, app_id, generation_id)
       VALUES ($1, 'sandbox', $2, $3, $4)`,
      [tokenHash, project.organization_id, project.app_id, generationId],
    );
    return true;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessRepository, type TokenRecord } from '../domain/access.repository';

interface TokenRow {
  environment: 'sandbox' | 'production';
  organization_id: string;
  app_id: string;
  grant_id: string | null;
  generation_id: string | null;
  app_revision_id: string | null;
  current_generation_id: string | null;
  scopes: string[] | null;
  revoked_at: Date | null;
  superseded_at: Date | null;
  expires_at: Date | null;
  approved_revision_id: string | null;
}

@Injectable()
export class TypeOrmAccessRepository extends AccessRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findToken(tokenHash: string): Promise<TokenRecord | null> {
    const rows: TokenRow[] = await this.dataSource.query(
      `SELECT t.environment, t.organization_id, t.app_id, t.grant_id, t.generation_id, t.app_revision_id,
              p.current_generation_id, g.scopes, g.revoked_at, g.superseded_at, g.expires_at,
              a.approved_revision_id
         FROM access_tokens t
         JOIN apps a ON a.id = t.app_id
         LEFT JOIN sandbox_generations sg ON sg.id = t.generation_id
         LEFT JOIN sandbox_projects p ON p.id = sg.project_id
         LEFT JOIN grants g ON g.organization_id = t.organization_id AND g.id = t.grant_id
        WHERE t.token_hash = $1`,
      [tokenHash],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      environment: r.environment,
      organizationId: r.organization_id,
      appId: r.app_id,
      grantId: r.grant_id,
      generationId: r.generation_id,
      appRevisionId: r.app_revision_id,
      currentGenerationId: r.current_generation_id,
      grant:
        r.grant_id && r.expires_at
          ? { scopes: r.scopes ?? [], revokedAt: r.revoked_at, supersededAt: r.superseded_at, expiresAt: new Date(r.expires_at) }
          : null,
      approvedRevisionId: r.approved_revision_id,
    };
  }

  async findActiveMandate(organizationId: string, appId: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM mandates WHERE organization_id = $1 AND app_id = $2 AND revoked_at IS NULL LIMIT 1`,
      [organizationId, appId],
    );
    return rows[0]?.id ?? null;
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessSql } from '../../access/sql';
import { type GrantRecord, GrantRepository, type NewGrant } from '../domain/grant.repository';

@Injectable()
export class TypeOrmGrantRepository extends GrantRepository {
  async supersedeCurrent(m: EntityManager, organizationId: string, appId: string, at: Date): Promise<void> {
    await m.query(
      `UPDATE grants SET superseded_at = $3 WHERE organization_id = $1 AND app_id = $2 AND superseded_at IS NULL`,
      [organizationId, appId, at],
    );
  }

  async insert(m: EntityManager, g: NewGrant): Promise<void> {
    await m.query(
      `INSERT INTO grants (organization_id, id, app_id, owner_user_id, scopes, aal, granted_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::text[], 'aal2', $6, $7)`,
      [g.organizationId, g.id, g.appId, g.ownerUserId, g.scopes, g.grantedAt, g.expiresAt],
    );
    await m.query(
      `INSERT INTO grant_accounts (organization_id, grant_id, account_id)
       SELECT $1::uuid, $2::uuid, unnest($3::uuid[])`,
      [g.organizationId, g.id, g.accountIds],
    );
  }

  async find(m: EntityManager, grantId: string): Promise<GrantRecord | null> {
    const rows: Array<{ id: string; organization_id: string; app_id: string }> = await m.query(
      `SELECT id, organization_id, app_id FROM grants WHERE id = $1`,
      [grantId],
    );
    const r = rows[0];
    return r ? { id: r.id, organizationId: r.organization_id, appId: r.app_id } : null;
  }

  async revoke(m: EntityManager, grantId: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `WITH revoked AS (UPDATE grants SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING id) SELECT id FROM revoked`,
      [grantId, at],
    );
    return rows.length > 0;
  }

  async insertToken(
    m: EntityManager,
    t: { tokenHash: string; organizationId: string; appId: string; grantId: string; appRevisionId: string },
  ): Promise<void> {
    await m.query(
      AccessSql.insertProductionToken,
      [t.tokenHash, t.organizationId, t.appId, t.grantId, t.appRevisionId],
    );
  }
}

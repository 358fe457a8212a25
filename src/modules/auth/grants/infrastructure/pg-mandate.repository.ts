import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MandateRepository } from '../domain/mandate.repository';

@Injectable()
export class PgMandateRepository extends MandateRepository {
  async revokeActive(m: EntityManager, organizationId: string, appId: string, at: Date): Promise<void> {
    await m.query(`UPDATE mandates SET revoked_at = $3 WHERE organization_id = $1 AND app_id = $2 AND revoked_at IS NULL`, [organizationId, appId, at]);
  }

  async insert(m: EntityManager, x: { id: string; organizationId: string; appId: string; ownerUserId: string }): Promise<void> {
    await m.query(`INSERT INTO mandates (organization_id, id, app_id, owner_user_id) VALUES ($1, $2, $3, $4)`, [
      x.organizationId,
      x.id,
      x.appId,
      x.ownerUserId,
    ]);
  }

  async revoke(m: EntityManager, mandateId: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `WITH revoked AS (UPDATE mandates SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING id) SELECT id FROM revoked`,
      [mandateId, at],
    );
    return rows.length > 0;
  }
}

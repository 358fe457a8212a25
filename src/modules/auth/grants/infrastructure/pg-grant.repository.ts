import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessSql } from '../../access/sql';
import { DemoIdentitySql } from '../../organizations';
import { OrganizationsSql } from '../../organizations/sql';
import { WebhooksSql } from '../../../webhooks/sql';
import type { GrantEvent, GrantRef } from '../domain/grant-events';
import { type ExpiredGrant, type ExpiringGrant, type GrantRecord, GrantRepository, type NewGrant } from '../domain/grant.repository';
import { bind, type CompiledSql, compileSql, queryWith, raw, sql, type SqlExpr, type SqlFragment } from '../../../../shared/database/sql-template';

interface RefRow {
  organization_id: string;
  id: string;
  app_id: string;
}

const ref = (r: RefRow): GrantRef => ({ organizationId: r.organization_id, id: r.id, appId: r.app_id });
const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

/** In force at `at`: not revoked, not superseded, not expired, and its end not claimed (CONTRACT §18). */
const IN_FORCE = (at: SqlExpr): SqlFragment => sql`revoked_at IS NULL AND superseded_at IS NULL AND end_notified_at IS NULL AND expires_at > ${at}`;

/** A grant event's outbox row (the outbox is the webhooks module's): grants are production's only. */
const INSERT_EVENT = compileSql(['organizationId', 'id', 'appId', 'eventType', 'body', 'createdAt'] as const, (s) =>
  WebhooksSql.insertOutboxEvent({ ...s, environment: raw(`'production'`) }),
);

@Injectable()
export class PgGrantRepository extends GrantRepository {
  /** A demo company's standing (CONTRACT §15): whether the organization is one, and the app's developer's demo company. */
  private readonly demoStandingSql: CompiledSql<'organizationId' | 'appId'>;

  constructor(demo: DemoIdentitySql) {
    super();
    this.demoStandingSql = compileSql(
      ['organizationId', 'appId'] as const,
      (s) => sql`SELECT ${OrganizationsSql.isDemo(sql`${s.organizationId}::uuid`)} AS demo, ${demo.demoOrganizationOfApp(sql`${s.appId}::uuid`)} AS app_demo`,
    );
  }

  async supersedeCurrent(m: EntityManager, organizationId: string, appId: string, at: Date): Promise<GrantRef[]> {
    // (UPDATE … RETURNING inside a CTE: TypeORM answers a bare UPDATE with [rows, count])
    // the organization's row is locked by the caller: supersessions of one (organization, app) never overlap
    const when = bind(at);
    const ended = await queryWith<RefRow>(
      m,
      sql`WITH ended AS (
         UPDATE grants SET superseded_at = ${when}, end_notified_at = ${when}
          WHERE organization_id = ${organizationId} AND app_id = ${appId} AND ${IN_FORCE(when)}
          RETURNING organization_id, id, app_id)
       SELECT * FROM ended`,
    );
    await m.query(`UPDATE grants SET superseded_at = $3 WHERE organization_id = $1 AND app_id = $2 AND superseded_at IS NULL`, [organizationId, appId, at]);
    return ended.map(ref);
  }

  async insert(m: EntityManager, g: NewGrant): Promise<void> {
    await m.query(
      `INSERT INTO grants (organization_id, id, app_id, owner_user_id, scopes, aal, granted_at, expires_at, expiring_notified_at)
       VALUES ($1, $2, $3, $4, $5::text[], 'aal2', $6, $7, $8)`,
      [g.organizationId, g.id, g.appId, g.ownerUserId, g.scopes, g.grantedAt, g.expiresAt, g.expiringNotifiedAt],
    );
    await m.query(
      `INSERT INTO grant_accounts (organization_id, grant_id, account_id)
       SELECT $1::uuid, $2::uuid, unnest($3::uuid[])`,
      [g.organizationId, g.id, g.accountIds],
    );
  }

  async find(m: EntityManager, grantId: string): Promise<GrantRecord | null> {
    const rows: Array<{ id: string; organization_id: string; app_id: string }> = await m.query(`SELECT id, organization_id, app_id FROM grants WHERE id = $1`, [
      grantId,
    ]);
    const r = rows[0];
    return r ? { id: r.id, organizationId: r.organization_id, appId: r.app_id } : null;
  }

  async revoke(m: EntityManager, grantId: string, at: Date): Promise<{ ended: GrantRef | null } | null> {
    // PostgreSQL re-checks the condition on the row it locks: of a revocation, a supersession and an
    // expiry scan running at once, one claims the end
    const when = bind(at);
    const ended = await queryWith<RefRow>(
      m,
      sql`WITH ended AS (UPDATE grants SET revoked_at = ${when}, end_notified_at = ${when} WHERE id = ${grantId} AND ${IN_FORCE(when)} RETURNING organization_id, id, app_id)
       SELECT * FROM ended`,
    );
    if (ended.length > 0) return { ended: ref(ended[0]) };
    const rows: unknown[] = await m.query(
      `WITH revoked AS (UPDATE grants SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING id) SELECT id FROM revoked`,
      [grantId, at],
    );
    return rows.length > 0 ? { ended: null } : null;
  }

  async insertToken(
    m: EntityManager,
    t: { tokenHash: string; organizationId: string; appId: string; grantId: string; appRevisionId: string | null },
  ): Promise<void> {
    await m.query(AccessSql.insertProductionToken, [t.tokenHash, t.organizationId, t.appId, t.grantId, t.appRevisionId]);
  }

  async demoStanding(m: EntityManager, organizationId: string, appId: string): Promise<{ organizationIsDemo: boolean; developersOwn: boolean }> {
    const [r]: Array<{ demo: boolean | null; app_demo: string | null }> = await m.query(
      this.demoStandingSql.text,
      this.demoStandingSql.values({ organizationId, appId }),
    );
    return { organizationIsDemo: r?.demo === true, developersOwn: r?.demo === true && r.app_demo === organizationId };
  }

  async insertEvents(m: EntityManager, events: readonly GrantEvent[]): Promise<void> {
    for (const e of events) {
      await m.query(
        INSERT_EVENT.text,
        INSERT_EVENT.values({ organizationId: e.organizationId, id: e.id, appId: e.appId, eventType: e.type, body: e.body, createdAt: e.createdAt }),
      );
    }
  }

  async claimExpired(m: EntityManager, now: Date, limit: number): Promise<ExpiredGrant[]> {
    // the due rows by their partial index (grants_end_due_idx), locked SKIP LOCKED, then updated by id
    // (grants_id_idx): as a join, the generic plan hashed every grant still in force (checked with
    // EXPLAIN on 500,000 grants). A row another instance claimed first is re-checked under its lock
    // and left out. An end claimed here was not claimed by a revocation or supersession before the expiry; `told`
    // guards rows written without a claim (before the claim columns existed, or by hand)
    const rows: Array<RefRow & { expires_at: Date | string; told: boolean }> = await m.query(
      `WITH claimed AS (
         UPDATE grants g SET end_notified_at = $1
          WHERE g.id = ANY(ARRAY(SELECT id FROM grants
                                  WHERE end_notified_at IS NULL AND expires_at <= $1
                                  ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED))
            AND g.end_notified_at IS NULL
          RETURNING g.organization_id, g.id, g.app_id, g.expires_at,
                    (g.revoked_at IS NULL OR g.revoked_at >= g.expires_at) AND (g.superseded_at IS NULL OR g.superseded_at >= g.expires_at) AS told)
       SELECT * FROM claimed`,
      [now, limit],
    );
    return rows.map((r) => ({ ...ref(r), expiresAt: date(r.expires_at), told: r.told }));
  }

  async claimExpiring(m: EntityManager, now: Date, until: Date, limit: number): Promise<ExpiringGrant[]> {
    const rows: Array<RefRow & { expires_at: Date | string; told: boolean }> = await m.query(
      `WITH claimed AS (
         UPDATE grants g SET expiring_notified_at = $1
          WHERE g.id = ANY(ARRAY(SELECT id FROM grants
                                  WHERE expiring_notified_at IS NULL AND end_notified_at IS NULL AND expires_at <= $2
                                  ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED))
            AND g.expiring_notified_at IS NULL AND g.end_notified_at IS NULL
          RETURNING g.organization_id, g.id, g.app_id, g.expires_at,
                    (g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $1) AS told)
       SELECT * FROM claimed`,
      [now, until, limit],
    );
    return rows.map((r) => ({ ...ref(r), expiresAt: date(r.expires_at), told: r.told }));
  }
}

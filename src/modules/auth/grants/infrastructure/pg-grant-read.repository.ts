import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Sql } from '../../../../shared/database/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { GrantsSql } from '../sql';
import { type GrantInForce, GrantReadRepository, type GrantView, type TokenGrantState } from '../domain/grant-read.repository';
import { compileSql, raw, sql } from '../../../../shared/database/sql-template';

/** sandbox: every active account of the organization (grantId null); production: the grant's selection (as GET /accounts). */
const PERMITTED_ACCOUNTS = compileSql(['organizationId', 'grantId'] as const, (s) =>
  OrganizationsSql.permittedActiveAccounts({
    organizationId: s.organizationId,
    permitted: (account) => sql`${s.grantId}::uuid IS NULL OR ${GrantsSql.grantSelectsAccount(raw('a.organization_id'), s.grantId, account, '       ')}`,
  }),
);

/** The grant ($1 organization, $3 id) of the app $2, with whether a mandate of (organization, app) is in force. */
const TOKEN_GRANT = `SELECT g.scopes, g.expires_at, (${GrantsSql.mandateInForceId('g.organization_id', 'g.app_id')}) IS NOT NULL AS mandate
   FROM grants g WHERE g.organization_id = $1 AND g.app_id = $2 AND g.id = $3`;

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

@Injectable()
export class PgGrantReadRepository extends GrantReadRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: Sql,
  ) {
    super();
  }

  async grants(organizationId: string): Promise<GrantView[]> {
    const rows: Array<{ id: string; app_id: string; scopes: string[]; account_ids: string[]; expires_at: Date | string; revoked: boolean }> =
      await this.dataSource.query(
        `SELECT g.id::text AS id, g.app_id::text AS app_id, g.scopes,
                ARRAY(SELECT ga.account_id::text FROM grant_accounts ga
                       WHERE ga.organization_id = g.organization_id AND ga.grant_id = g.id ORDER BY ga.account_id) AS account_ids,
                g.expires_at, (g.revoked_at IS NOT NULL OR g.superseded_at IS NOT NULL) AS revoked
           FROM grants g WHERE g.organization_id = $1 ORDER BY g.granted_at DESC, g.id`,
        [organizationId],
      );
    return rows.map((r) => ({
      id: r.id,
      app_id: r.app_id,
      scopes: [...r.scopes],
      account_ids: [...r.account_ids],
      expires_at: iso(r.expires_at),
      revoked: r.revoked,
    }));
  }

  async grantsInForce(m: EntityManager, organizationIds: string[], now: Date): Promise<GrantInForce[]> {
    if (organizationIds.length === 0) return [];
    const rows: Array<{
      organization_id: string;
      id: string;
      app_id: string;
      scopes: string[];
      granted_at: Date | string;
      expires_at: Date | string;
      account_ids: string[];
      mandate: boolean;
    }> = await m.query(
      `SELECT g.organization_id, g.id, g.app_id, g.scopes, g.granted_at, g.expires_at,
                EXISTS (SELECT 1 FROM mandates md WHERE md.organization_id = g.organization_id AND md.app_id = g.app_id AND md.revoked_at IS NULL) AS mandate,
                ARRAY(SELECT ga.account_id::text FROM grant_accounts ga
                       WHERE ga.organization_id = g.organization_id AND ga.grant_id = g.id) AS account_ids
           FROM grants g
          WHERE g.organization_id = ANY($1::uuid[]) AND g.revoked_at IS NULL AND g.superseded_at IS NULL AND g.expires_at > $2`,
      [organizationIds, now],
    );
    return rows.map((r) => ({
      organizationId: r.organization_id,
      id: r.id,
      appId: r.app_id,
      scopes: r.scopes,
      grantedAt: r.granted_at instanceof Date ? r.granted_at : new Date(r.granted_at),
      expiresAt: r.expires_at instanceof Date ? r.expires_at : new Date(r.expires_at),
      accountIds: r.account_ids,
      mandate: r.mandate === true,
    }));
  }

  async permittedAccountIds(organizationId: string, grantId: string | null): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(PERMITTED_ACCOUNTS.text, PERMITTED_ACCOUNTS.values({ organizationId, grantId }));
    return rows.map((r) => r.id);
  }

  async tokenGrant(organizationId: string, appId: string, grantId: string): Promise<TokenGrantState | null> {
    const rows = await this.sql.query<{ scopes: string[]; expires_at: Date | string; mandate: boolean }>(TOKEN_GRANT, [organizationId, appId, grantId]);
    const r = rows[0];
    return r ? { scopes: [...r.scopes], expiresAt: r.expires_at instanceof Date ? r.expires_at : new Date(r.expires_at), mandate: r.mandate } : null;
  }
}

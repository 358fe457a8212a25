import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessSql } from '../../access/sql';
import { GrantsSql } from '../../grants/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { DemoIdentitySql } from '../../organizations';
import { ConsentRepository, type OAuthClientRegistration, type StoredCode } from '../domain/consent.repository';
import { type CompiledSql, compileSql, sql } from '../../../../shared/database/sql-template';

const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));
/**
 * The code with its grant's expiry, the code's row locked (not the grant's): one statement, so the
 * lock and the read of the grant go together; the grant's join and column come from GrantsSql.
 */
const CODE_FOR_UPDATE = `SELECT c.*, ${GrantsSql.grantExpiresAt('g')} AS grant_expires_at
         FROM authorization_codes c ${GrantsSql.joinGrant('g', 'c.organization_id', 'c.grant_id')}
        WHERE c.code_hash = $1 FOR UPDATE OF c`;

@Injectable()
export class PgConsentRepository extends ConsentRepository {
  /** Sign-in's users by email: a developer's demo identity signs in with the developer's password (CONTRACT §15). */
  private readonly usersSigningIn: string;
  /** The demo company of the app's developer, or null. */
  private readonly demoOrganizationOfAppSql: CompiledSql<'appId'>;

  constructor(demo: DemoIdentitySql) {
    super();
    this.usersSigningIn = OrganizationsSql.usersSigningIn((developerId) => demo.passwordHashOf(developerId));
    this.demoOrganizationOfAppSql = compileSql(['appId'] as const, (s) => sql`SELECT ${demo.demoOrganizationOfApp(sql`${s.appId}::uuid`)} AS demo`);
  }

  async findClientRegistration(m: EntityManager, appId: string): Promise<OAuthClientRegistration | null> {
    const rows: Array<{ secret_hash: string; previous_secret_hash: string | null; redirect_uris: string[] }> = await m.query(
      `SELECT secret_hash, CASE WHEN previous_secret_until > now() THEN previous_secret_hash END AS previous_secret_hash, redirect_uris
         FROM oauth_clients WHERE app_id = $1`,
      [appId],
    );
    const r = rows[0];
    return r ? { secretHash: r.secret_hash, previousSecretHash: r.previous_secret_hash, redirectUris: r.redirect_uris } : null;
  }

  async replaceSecret(m: EntityManager, appId: string, secretHash: string, keepPreviousSeconds: number, at: Date): Promise<Date | null> {
    const rows: Array<{ until: Date | null }> = await m.query(
      `WITH replaced AS (
         UPDATE oauth_clients SET
                previous_secret_hash = CASE WHEN $3::int > 0 THEN secret_hash END,
                previous_secret_until = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END,
                secret_hash = $2, updated_at = $4
          WHERE app_id = $1 RETURNING previous_secret_until AS until)
       SELECT until FROM replaced`,
      [appId, secretHash, keepPreviousSeconds, at],
    );
    return rows[0]?.until ? new Date(rows[0].until) : null;
  }

  async saveClient(m: EntityManager, appId: string, secretHash: string, redirectUris: string[], at: Date): Promise<void> {
    await m.query(
      `INSERT INTO oauth_clients (app_id, secret_hash, redirect_uris, updated_at) VALUES ($1, $2, $3::text[], $4)
       ON CONFLICT (app_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, redirect_uris = EXCLUDED.redirect_uris, updated_at = EXCLUDED.updated_at`,
      [appId, secretHash, redirectUris, at],
    );
  }

  async userEmail(m: EntityManager, userId: string): Promise<string | null> {
    const rows: Array<{ email: string }> = await m.query(OrganizationsSql.userEmail, [userId]);
    return rows[0]?.email ?? null;
  }

  async findUsersByEmail(m: EntityManager, email: string): Promise<Array<{ userId: string; passwordHash: string | null }>> {
    const rows: Array<{ id: string; password_hash: string | null }> = await m.query(this.usersSigningIn, [email]);
    return rows.map((r) => ({ userId: r.id, passwordHash: r.password_hash }));
  }

  async ownedOrganizations(m: EntityManager, userId: string) {
    const rows: Array<{ id: string; name: string; environment: string; demo: boolean }> = await m.query(OrganizationsSql.organizationsOwnedBy, [userId]);
    return rows.map((r) => ({ ...r, demo: r.demo === true }));
  }

  async demoOrganizationOfApp(m: EntityManager, appId: string): Promise<string | null> {
    const [r]: Array<{ demo: string | null }> = await m.query(this.demoOrganizationOfAppSql.text, this.demoOrganizationOfAppSql.values({ appId }));
    return r?.demo ?? null;
  }

  async isOwner(m: EntityManager, organizationId: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(OrganizationsSql.isOwner, [organizationId, userId]);
    return rows.length > 0;
  }

  async activeAccounts(m: EntityManager, organizationId: string) {
    const rows: Array<{ id: string; number: string; name: string }> = await m.query(OrganizationsSql.activeAccountsOf, [organizationId]);
    return rows;
  }

  async insertCode(m: EntityManager, c: Omit<StoredCode, 'usedAt' | 'tokenHash' | 'grantExpiresAt'>): Promise<void> {
    // a code is worthless after 60 s, but kept a day so that a late replay still revokes its token
    await m.query(`DELETE FROM authorization_codes WHERE issued_at < $1`, [new Date(c.issuedAt.getTime() - 86_400_000)]);
    await m.query(
      `INSERT INTO authorization_codes (code_hash, organization_id, grant_id, app_id, redirect_uri, code_challenge, scopes, issued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8)`,
      [c.codeHash, c.organizationId, c.grantId, c.appId, c.redirectUri, c.codeChallenge, c.scopes, c.issuedAt],
    );
  }

  async findCodeForUpdate(m: EntityManager, codeHash: string): Promise<StoredCode | null> {
    const rows: Array<Record<string, unknown>> = await m.query(CODE_FOR_UPDATE, [codeHash]);
    const r = rows[0];
    if (!r) return null;
    return {
      codeHash: r.code_hash as string,
      organizationId: r.organization_id as string,
      grantId: r.grant_id as string,
      appId: r.app_id as string,
      redirectUri: r.redirect_uri as string,
      codeChallenge: r.code_challenge as string,
      scopes: r.scopes as string[],
      issuedAt: date(r.issued_at as Date) as Date,
      usedAt: date(r.used_at as Date | null),
      tokenHash: r.token_hash as string | null,
      grantExpiresAt: date(r.grant_expires_at as Date) as Date,
    };
  }

  async markCodeUsed(m: EntityManager, codeHash: string, at: Date, tokenHash: string): Promise<void> {
    await m.query(`UPDATE authorization_codes SET used_at = $2, token_hash = $3 WHERE code_hash = $1`, [codeHash, at, tokenHash]);
  }

  async deleteToken(m: EntityManager, tokenHash: string, appId: string): Promise<string | null> {
    const rows: Array<{ grant_id: string | null }> = await m.query(AccessSql.deleteTokenOfApp, [tokenHash, appId]);
    return rows[0]?.grant_id ?? null;
  }
}

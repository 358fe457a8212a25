import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
import { AppsSql } from '../../apps/sql';
import { GrantsSql } from '../../grants/sql';
import { IdempotencySql } from '../../idempotency/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { SandboxSql } from '../../sandbox/sql';
import { AccessRepository, type TokenRecord } from '../domain/access.repository';
import { type AccessLookups, NO_LOOKUPS, type Environment } from '../../../shared/domain/caller-context';
import type { PrefetchedIdempotencyRecord, PrefetchedReferences } from '../../../shared/domain/caller-context';

interface TokenRow {
  environment: Environment;
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
  mandate_id: string | null;
  usable_accounts: string[] | null;
  usable_tax_codes: string[] | null;
  idem_operation: string | null;
  idem_fingerprint: string | null;
  idem_grant_id: string | null;
  idem_response: Record<string, unknown> | null;
}

/**
 * The token, its grant, generation and app state, and what the route asks for besides (AccessLookups)
 * — one statement, so that a prepare or a replay costs one round trip. Every optional part is behind a
 * CASE or a join condition on its parameter, so PostgreSQL does none of it when it is not asked for.
 * The idempotency record is found by all four columns of its primary key. Each part about another
 * module's tables is that module's (its sql.ts); this statement only combines them.
 */
const TOKEN_SQL = `
WITH t AS (
  SELECT t.environment, t.organization_id, t.app_id, t.grant_id, t.generation_id, t.app_revision_id,
         ${SandboxSql.currentGenerationId('p')}, ${GrantsSql.grantState('g')},
         ${AppsSql.approvedRevisionId('a')}
    FROM access_tokens t
    ${AppsSql.joinApp('a', 't.app_id')}
    ${SandboxSql.leftJoinProjectOfGeneration('p', 't.generation_id')}
    ${GrantsSql.leftJoinGrant('g', 't.organization_id', 't.grant_id')}
   WHERE t.token_hash = $1)
SELECT t.*,
  CASE WHEN $2::boolean THEN (
    ${GrantsSql.mandateInForceId('t.organization_id', 't.app_id')})
  END AS mandate_id,
  CASE WHEN $3::uuid[] IS NOT NULL THEN ARRAY(
    ${OrganizationsSql.activeAccountIds({
      alias: 'ac',
      organizationId: 't.organization_id',
      ids: '$3::uuid[]',
      permitted: (account) => `t.environment = 'sandbox' OR ${GrantsSql.grantSelectsAccount('t.organization_id', 't.grant_id', account, '       ')}`,
    })})
  END AS usable_accounts,
  CASE WHEN $4::uuid[] IS NOT NULL THEN ARRAY(
    ${OrganizationsSql.taxCodeIds({ alias: 'tc', organizationId: 't.organization_id', ids: '$4::uuid[]' })})
  END AS usable_tax_codes,
  ${IdempotencySql.recordColumns('r')}
FROM t
${IdempotencySql.leftJoinRecord('r', '$5::text', 't')}`;

@Injectable()
export class TypeOrmAccessRepository extends AccessRepository {
  constructor(private readonly sql: Sql) {
    super();
  }

  async findToken(tokenHash: string, lookups: AccessLookups = NO_LOOKUPS): Promise<TokenRecord | null> {
    const refs = lookups.references;
    const rows = await this.sql.query<TokenRow>(TOKEN_SQL, [
      tokenHash,
      lookups.mandate,
      refs ? refs.accountIds : null,
      refs ? refs.taxCodeIds : null,
      lookups.idempotencyKey,
    ]);
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
      mandateId: r.mandate_id,
      prefetched: {
        references: refs ? references(refs, r) : null,
        idempotency: lookups.idempotencyKey === null ? null : idempotencyRecord(lookups.idempotencyKey, r),
      },
    };
  }

}

function references(asked: { accountIds: string[]; taxCodeIds: string[] }, r: TokenRow): PrefetchedReferences {
  return {
    accountIds: new Set(asked.accountIds),
    taxCodeIds: new Set(asked.taxCodeIds),
    usableAccounts: new Set(r.usable_accounts ?? []),
    usableTaxCodes: new Set(r.usable_tax_codes ?? []),
  };
}

function idempotencyRecord(key: string, r: TokenRow): PrefetchedIdempotencyRecord {
  // a record is committed together with its response; one without is not treated as found
  if (r.idem_operation === null || r.idem_fingerprint === null || r.idem_response === null) return { key, record: null };
  return {
    key,
    record: { operation: r.idem_operation, fingerprint: r.idem_fingerprint, grantId: r.idem_grant_id, response: r.idem_response },
  };
}

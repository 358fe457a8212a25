import { Injectable } from '@nestjs/common';
import { Sql } from '../../../shared/database/sql';
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
 * The idempotency record is found by all four columns of its primary key.
 */
const TOKEN_SQL = `
WITH t AS (
  SELECT t.environment, t.organization_id, t.app_id, t.grant_id, t.generation_id, t.app_revision_id,
         p.current_generation_id, g.scopes, g.revoked_at, g.superseded_at, g.expires_at,
         a.approved_revision_id
    FROM access_tokens t
    JOIN apps a ON a.id = t.app_id
    LEFT JOIN sandbox_generations sg ON sg.id = t.generation_id
    LEFT JOIN sandbox_projects p ON p.id = sg.project_id
    LEFT JOIN grants g ON g.organization_id = t.organization_id AND g.id = t.grant_id
   WHERE t.token_hash = $1)
SELECT t.*,
  CASE WHEN $2::boolean THEN (
    SELECT m.id FROM mandates m
     WHERE m.organization_id = t.organization_id AND m.app_id = t.app_id AND m.revoked_at IS NULL LIMIT 1)
  END AS mandate_id,
  CASE WHEN $3::uuid[] IS NOT NULL THEN ARRAY(
    SELECT ac.id FROM accounts ac
     WHERE ac.organization_id = t.organization_id AND ac.id = ANY($3::uuid[]) AND ac.active
       AND (t.environment = 'sandbox' OR EXISTS (
             SELECT 1 FROM grant_accounts ga
              WHERE ga.organization_id = t.organization_id AND ga.grant_id = t.grant_id AND ga.account_id = ac.id)))
  END AS usable_accounts,
  CASE WHEN $4::uuid[] IS NOT NULL THEN ARRAY(
    SELECT tc.id FROM tax_codes tc WHERE tc.organization_id = t.organization_id AND tc.id = ANY($4::uuid[]))
  END AS usable_tax_codes,
  r.operation AS idem_operation, r.fingerprint AS idem_fingerprint, r.grant_id AS idem_grant_id,
  r.response AS idem_response
FROM t
LEFT JOIN idempotency_records r
  ON $5::text IS NOT NULL AND r.organization_id = t.organization_id AND r.environment = t.environment
 AND r.app_id = t.app_id AND r.idempotency_key = $5::text`;

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

import { Injectable } from '@nestjs/common';
import { Sql } from '../../../../shared/database/sql';
import { AppsSql } from '../../apps/sql';
import { IdempotencySql } from '../../../idempotency/sql';
import { OrganizationsSql } from '../../organizations/sql';
import { AccessRepository, type TokenRecord } from '../domain/access.repository';
import { GrantTokenSql, SandboxTokenSql } from '../domain/token-state.sql';
import { type AccessLookups, NO_LOOKUPS, type Environment } from '../../../../shared/domain/caller-context';
import type { PrefetchedIdempotencyRecord, PrefetchedReferences } from '../../../../shared/domain/caller-context';
import { type CompiledSql, compileSql, empty, join, raw, sql } from '../../../../shared/database/sql-template';

interface TokenRow {
  environment: Environment;
  organization_id: string;
  app_id: string;
  // present only in the statements of the environment that reads them (tokenStatement: a sandbox text reads the
  // generation, a production text the grant and the app revision; node-postgres describes every column, and looks
  // up its parser, on every execution)
  grant_id?: string | null;
  generation_id?: string | null;
  app_revision_id?: string | null;
  current_generation_id?: string | null;
  scopes?: string[] | null;
  revoked_at?: Date | null;
  superseded_at?: Date | null;
  expires_at?: Date | null;
  approved_revision_id?: string | null;
  // present only in the shapes that read them (tokenStatement)
  mandate_id?: string | null;
  // uuid[] as its text ('{…}'), split by usableIds: with the null columns of the other environment left out, the
  // sandbox prepare's execution costs node-postgres 110k instead of 143k instructions (bench/RESULTS.md, issue 47
  // fourth session)
  usable_accounts?: string | null;
  usable_tax_codes?: string | null;
  idem_operation?: string | null;
  idem_fingerprint?: string | null;
  idem_grant_id?: string | null;
  idem_response?: Record<string, unknown> | null;
}

/** Which optional parts a token statement reads besides the token (from AccessLookups). */
export interface TokenStatementShape {
  /** the environment of the base path: only its token's state is read (a token of the other one is refused on its environment) */
  environment: Environment;
  mandate: boolean;
  references: boolean;
  idempotencyRecord: boolean;
}

/**
 * The token, its grant, generation and app state, and what the route asks for besides (AccessLookups)
 * — one statement, so that a prepare or a replay costs one round trip. Each part about another
 * module's tables is that module's (its sql.ts); this statement only combines them. The idempotency
 * record is found by all four columns of its primary key.
 *
 * One statement text per shape, holding only the parts asked for, rather than one text with every part
 * behind a CASE on its parameter: PostgreSQL costs a generic plan with every part in it, so for the
 * cheap shapes (a create, a replay) it judged the generic plan dearer than a custom one and planned the
 * statement again on every call on a new database (its small tables never analyzed), which halved the
 * rate of creates (bench/RESULTS.md, "Figures behind code comments"). A text with only its own parts gets its generic
 * plan after five calls on a connection, as the statements of writes do.
 *
 * And one text per environment of the base path: a sandbox token's state is its generation (the
 * project's current one), a production token's is its grant and its app's approved revision; the path
 * says which is asked for, so each text joins only those tables (4 index look-ups instead of 6 for a
 * replay). A token of the other environment is still found, and refused on its environment.
 */
export function tokenStatement(shape: TokenStatementShape, parts: { grants: GrantTokenSql; sandbox: SandboxTokenSql }): CompiledSql<TokenSlot> {
  const GrantsSql = parts.grants;
  const SandboxSql = parts.sandbox;
  return compileSql(TOKEN_SLOTS, (s) => {
    const sandbox = shape.environment === 'sandbox';
    const columns = [raw('t.*')];
    if (shape.mandate) {
      columns.push(raw(`(${GrantsSql.mandateInForceId('t.organization_id', 't.app_id')}) AS mandate_id`));
    }
    if (shape.references) {
      columns.push(sql`ARRAY(
    ${OrganizationsSql.activeAccountIds({
      alias: 'ac',
      organizationId: raw('t.organization_id'),
      ids: sql`${s.accountIds}::uuid[]`,
      // a sandbox token may use every account of its organization
      permitted: (account) => (sandbox ? raw('TRUE') : GrantsSql.grantSelectsAccount(raw('t.organization_id'), raw('t.grant_id'), account, '       ')),
    })})::text AS usable_accounts`);
      columns.push(sql`ARRAY(
    ${OrganizationsSql.taxCodeIds({ alias: 'tc', organizationId: raw('t.organization_id'), ids: sql`${s.taxCodeIds}::uuid[]` })})::text AS usable_tax_codes`);
    }
    const key = shape.idempotencyRecord ? sql`${s.idempotencyKey}::text` : null;
    if (key) columns.push(raw(IdempotencySql.recordColumns('r')));
    return sql`
WITH t AS (
  SELECT t.environment, t.organization_id, t.app_id,
         ${raw(
           sandbox
             ? `t.generation_id, ${SandboxSql.currentGenerationId('p')}`
             : `t.grant_id, t.app_revision_id, ${GrantsSql.grantState('g')}, ${AppsSql.approvedRevisionId('a')}`,
         )}
    FROM access_tokens t
    ${raw(
      sandbox
        ? SandboxSql.leftJoinProjectOfGeneration('p', 't.generation_id')
        : `${AppsSql.joinApp('a', 't.app_id')}
    ${GrantsSql.leftJoinGrant('g', 't.organization_id', 't.grant_id')}`,
    )}
   WHERE t.token_hash = ${s.tokenHash})
SELECT ${join(columns, ',\n  ')}
FROM t${key ? sql`\n${IdempotencySql.leftJoinRecord('r', key, 't')}` : empty}`;
  });
}

/** The values a token statement takes (those of its shape's parts). */
const TOKEN_SLOTS = ['tokenHash', 'accountIds', 'taxCodeIds', 'idempotencyKey'] as const;
type TokenSlot = (typeof TOKEN_SLOTS)[number];

@Injectable()
export class PgAccessRepository extends AccessRepository {
  /** The sixteen texts, by shapeIndex (built once, from the parts grants and sandbox bind). */
  private readonly statements: ReadonlyArray<CompiledSql<TokenSlot>>;

  constructor(
    private readonly sql: Sql,
    grants: GrantTokenSql,
    sandbox: SandboxTokenSql,
  ) {
    super();
    this.statements = Array.from({ length: 16 }, (_, i) =>
      tokenStatement(
        { environment: (i & 8) !== 0 ? 'production' : 'sandbox', mandate: (i & 1) !== 0, references: (i & 2) !== 0, idempotencyRecord: (i & 4) !== 0 },
        { grants, sandbox },
      ),
    );
  }

  async findToken(tokenHash: string, environment: Environment, lookups: AccessLookups = NO_LOOKUPS): Promise<TokenRecord | null> {
    const refs = lookups.references;
    const key = lookups.idempotencyKey;
    const shapeIndex = (lookups.mandate ? 1 : 0) | (refs ? 2 : 0) | (key !== null ? 4 : 0) | (environment === 'production' ? 8 : 0);
    const statement = this.statements[shapeIndex];
    // a slot the shape does not read is left out of its values (null keeps compileSql's undefined check quiet)
    const values = statement.values({ tokenHash, accountIds: refs?.accountIds ?? null, taxCodeIds: refs?.taxCodeIds ?? null, idempotencyKey: key });
    const rows = await this.sql.query<TokenRow>(statement.text, values);
    const r = rows[0];
    if (!r) return null;
    return {
      environment: r.environment,
      organizationId: r.organization_id,
      appId: r.app_id,
      grantId: r.grant_id ?? null,
      generationId: r.generation_id ?? null,
      appRevisionId: r.app_revision_id ?? null,
      currentGenerationId: r.current_generation_id ?? null,
      grant:
        r.grant_id && r.expires_at
          ? { scopes: r.scopes ?? [], revokedAt: r.revoked_at ?? null, supersededAt: r.superseded_at ?? null, expiresAt: new Date(r.expires_at) }
          : null,
      approvedRevisionId: r.approved_revision_id ?? null,
      mandateId: r.mandate_id ?? null,
      prefetched: {
        references: refs ? references(refs, r) : null,
        idempotency: key === null ? null : idempotencyRecord(key, r),
      },
    };
  }
}

function references(asked: { accountIds: string[]; taxCodeIds: string[] }, r: TokenRow): PrefetchedReferences {
  return {
    accountIds: new Set(asked.accountIds),
    taxCodeIds: new Set(asked.taxCodeIds),
    usableAccounts: usableIds(r.usable_accounts),
    usableTaxCodes: usableIds(r.usable_tax_codes),
  };
}

/** The ids of a uuid[]'s text ('{a,b}', '{}'): a uuid's text has no character that needs quoting. */
export function usableIds(text: string | null | undefined): Set<string> {
  return !text || text === '{}' ? new Set() : new Set(text.slice(1, -1).split(','));
}

function idempotencyRecord(key: string, r: TokenRow): PrefetchedIdempotencyRecord {
  // a record is committed together with its response; one without is not treated as found
  if (r.idem_operation == null || r.idem_fingerprint == null || r.idem_response == null) return { key, record: null };
  return {
    key,
    record: { operation: r.idem_operation, fingerprint: r.idem_fingerprint, grantId: r.idem_grant_id ?? null, response: r.idem_response },
  };
}

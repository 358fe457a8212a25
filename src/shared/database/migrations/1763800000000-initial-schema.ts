import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole data model of the first release. Every tenant table carries `organization_id`, and its
 * primary key, unique indexes and foreign keys lead with it (STYLE.md: distributable by organization).
 * Kept to PostgreSQL 15 features (PGlite reports 18, the servers are 15).
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE organizations (
         id uuid PRIMARY KEY,
         name text NOT NULL,
         environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE accounts (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         number text NOT NULL,
         name text NOT NULL,
         active boolean NOT NULL DEFAULT true,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, id),
         UNIQUE (organization_id, number)
       )`,
      `CREATE INDEX accounts_id_idx ON accounts (id)`,
      `CREATE TABLE tax_codes (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         code text NOT NULL,
         rate_basis_points integer NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, id),
         UNIQUE (organization_id, code)
       )`,
      `CREATE TABLE users (
         id uuid PRIMARY KEY,
         email text NOT NULL,
         totp_secret text NOT NULL,
         totp_last_step bigint,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE organization_owners (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         user_id uuid NOT NULL REFERENCES users (id),
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, user_id)
       )`,
      `CREATE TABLE apps (
         id uuid PRIMARY KEY,
         name text NOT NULL,
         approved_revision_id uuid,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE app_revisions (
         id uuid PRIMARY KEY,
         app_id uuid NOT NULL REFERENCES apps (id),
         number integer NOT NULL,
         approved_at timestamptz,
         created_at timestamptz NOT NULL DEFAULT now(),
         UNIQUE (app_id, number)
       )`,
      `CREATE TABLE grants (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         app_id uuid NOT NULL REFERENCES apps (id),
         owner_user_id uuid NOT NULL REFERENCES users (id),
         scopes text[] NOT NULL,
         aal text NOT NULL,
         granted_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         revoked_at timestamptz,
         superseded_at timestamptz,
         PRIMARY KEY (organization_id, id)
       )`,
      `CREATE INDEX grants_id_idx ON grants (id)`,
      // at most one grant in force (not superseded) per (organization, app)
      `CREATE UNIQUE INDEX grants_current_idx ON grants (organization_id, app_id) WHERE superseded_at IS NULL`,
      `CREATE TABLE grant_accounts (
         organization_id uuid NOT NULL,
         grant_id uuid NOT NULL,
         account_id uuid NOT NULL,
         PRIMARY KEY (organization_id, grant_id, account_id),
         FOREIGN KEY (organization_id, grant_id) REFERENCES grants (organization_id, id),
         FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id)
       )`,
      `CREATE TABLE mandates (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         app_id uuid NOT NULL REFERENCES apps (id),
         owner_user_id uuid REFERENCES users (id),
         created_at timestamptz NOT NULL DEFAULT now(),
         revoked_at timestamptz,
         PRIMARY KEY (organization_id, id)
       )`,
      `CREATE INDEX mandates_id_idx ON mandates (id)`,
      `CREATE INDEX mandates_active_idx ON mandates (organization_id, app_id) WHERE revoked_at IS NULL`,
      `CREATE TABLE sandbox_projects (
         id uuid PRIMARY KEY,
         name text NOT NULL,
         organization_id uuid NOT NULL REFERENCES organizations (id),
         app_id uuid NOT NULL REFERENCES apps (id),
         current_generation_id uuid,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE sandbox_generations (
         id uuid PRIMARY KEY,
         project_id uuid NOT NULL REFERENCES sandbox_projects (id),
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      // only a SHA-256 hash of a token is stored (CONTRACT §8)
      `CREATE TABLE access_tokens (
         token_hash text PRIMARY KEY,
         environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
         organization_id uuid NOT NULL REFERENCES organizations (id),
         app_id uuid NOT NULL REFERENCES apps (id),
         grant_id uuid,
         generation_id uuid REFERENCES sandbox_generations (id),
         app_revision_id uuid REFERENCES app_revisions (id),
         created_at timestamptz NOT NULL DEFAULT now(),
         FOREIGN KEY (organization_id, grant_id) REFERENCES grants (organization_id, id),
         CHECK ((grant_id IS NULL) <> (generation_id IS NULL))
       )`,
      `CREATE TABLE products (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         environment text NOT NULL,
         code text NOT NULL,
         name text NOT NULL,
         description text,
         kind text NOT NULL CHECK (kind IN ('goods', 'services')),
         unit text NOT NULL,
         unit_price_minor bigint CHECK (unit_price_minor BETWEEN 0 AND 99999999999999),
         app_id uuid NOT NULL,
         operation_id uuid NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, id),
         UNIQUE (organization_id, environment, code)
       )`,
      `CREATE TABLE voucher_counters (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         year integer NOT NULL,
         last_number integer NOT NULL,
         PRIMARY KEY (organization_id, year)
       )`,
      `CREATE TABLE periods (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         period text NOT NULL CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
         closed_at timestamptz,
         PRIMARY KEY (organization_id, period)
       )`,
      `CREATE TABLE journal_entries (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         environment text NOT NULL,
         voucher_year integer NOT NULL,
         voucher_number integer NOT NULL,
         posting_date date NOT NULL,
         transaction_date date,
         document_date date,
         description text,
         currency text NOT NULL,
         app_id uuid NOT NULL,
         operation_id uuid NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, id),
         UNIQUE (organization_id, voucher_year, voucher_number)
       )`,
      `CREATE TABLE journal_lines (
         organization_id uuid NOT NULL,
         entry_id uuid NOT NULL,
         line_no integer NOT NULL,
         account_id uuid NOT NULL,
         debit_minor bigint NOT NULL CHECK (debit_minor BETWEEN 0 AND 99999999999999),
         credit_minor bigint NOT NULL CHECK (credit_minor BETWEEN 0 AND 99999999999999),
         tax_code_id uuid,
         dimension_refs jsonb NOT NULL,
         line_text text,
         PRIMARY KEY (organization_id, entry_id, line_no),
         FOREIGN KEY (organization_id, entry_id) REFERENCES journal_entries (organization_id, id),
         FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id),
         FOREIGN KEY (organization_id, tax_code_id) REFERENCES tax_codes (organization_id, id),
         CHECK ((debit_minor > 0) <> (credit_minor > 0))
       )`,
      `CREATE TABLE operation_receipts (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         environment text NOT NULL,
         app_id uuid NOT NULL,
         kind text NOT NULL,
         status text NOT NULL,
         resource_type text NOT NULL,
         resource_id uuid NOT NULL,
         completed_at timestamptz NOT NULL,
         PRIMARY KEY (organization_id, id)
       )`,
      // scope of a key: (environment, organization, app) — CONTRACT §6
      `CREATE TABLE idempotency_records (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         environment text NOT NULL,
         app_id uuid NOT NULL,
         idempotency_key text NOT NULL,
         operation text NOT NULL,
         fingerprint text NOT NULL,
         grant_id uuid,
         response jsonb,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (organization_id, environment, app_id, idempotency_key)
       )`,
      `CREATE INDEX idempotency_records_created_at_idx ON idempotency_records (created_at)`,
      // the transactional outbox: one row per stored receipt, written in the write's transaction
      `CREATE TABLE webhook_outbox (
         organization_id uuid NOT NULL REFERENCES organizations (id),
         id uuid NOT NULL,
         environment text NOT NULL,
         app_id uuid NOT NULL,
         event_type text NOT NULL,
         body text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         dispatched_at timestamptz,
         PRIMARY KEY (organization_id, id)
       )`,
      `CREATE INDEX webhook_outbox_pending_idx ON webhook_outbox (created_at) WHERE dispatched_at IS NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_outbox',
      'idempotency_records',
      'operation_receipts',
      'journal_lines',
      'journal_entries',
      'periods',
      'voucher_counters',
      'products',
      'access_tokens',
      'sandbox_generations',
      'sandbox_projects',
      'mandates',
      'grant_accounts',
      'grants',
      'app_revisions',
      'apps',
      'organization_owners',
      'users',
      'tax_codes',
      'accounts',
      'organizations',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}

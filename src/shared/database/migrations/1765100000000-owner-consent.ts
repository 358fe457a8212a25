import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner consent (CONTRACT §10, §11): owner passwords, OAuth clients of apps, consent-page sessions,
 * authorization codes and the per-email sign-in lockout. Everything is in the database, so several
 * instances on one database share sessions, codes and lockouts.
 */
export class OwnerConsent1765100000000 implements MigrationInterface {
  name = 'OwnerConsent1765100000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      // argon2id (PHC string); null: the owner cannot sign in to the consent pages
      `ALTER TABLE users ADD COLUMN password_hash text`,
      // one user per email: enrolment in a second organization finds the same user
      `CREATE INDEX users_email_idx ON users (lower(email))`,
      // client_id is the app id; only a SHA-256 hash of the client secret is stored
      `CREATE TABLE oauth_clients (
         app_id uuid PRIMARY KEY REFERENCES apps (id),
         secret_hash text NOT NULL,
         redirect_uris text[] NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now()
       )`,
      // the cookie holds a random id; only its SHA-256 hash is stored
      `CREATE TABLE consent_sessions (
         id_hash text PRIMARY KEY,
         csrf_secret text NOT NULL,
         purpose text NOT NULL CHECK (purpose IN ('authorize', 'connections')),
         request jsonb,
         user_id uuid REFERENCES users (id),
         organization_id uuid REFERENCES organizations (id),
         created_at timestamptz NOT NULL DEFAULT now(),
         expires_at timestamptz NOT NULL
       )`,
      `CREATE INDEX consent_sessions_expires_idx ON consent_sessions (expires_at)`,
      // looked up by the code's hash alone (the token request does not name the organization)
      `CREATE TABLE authorization_codes (
         code_hash text PRIMARY KEY,
         organization_id uuid NOT NULL REFERENCES organizations (id),
         grant_id uuid NOT NULL,
         app_id uuid NOT NULL REFERENCES apps (id),
         redirect_uri text NOT NULL,
         code_challenge text NOT NULL,
         scopes text[] NOT NULL,
         issued_at timestamptz NOT NULL,
         used_at timestamptz,
         token_hash text,
         FOREIGN KEY (organization_id, grant_id) REFERENCES grants (organization_id, id)
       )`,
      `CREATE INDEX authorization_codes_issued_idx ON authorization_codes (issued_at)`,
      // CONTRACT §11: 5 failed sign-ins per email in 15 minutes lock it for 15 minutes; keyed by a hash of the email
      `CREATE TABLE sign_in_lockouts (
         email_key text PRIMARY KEY,
         locked_until timestamptz
       )`,
      `CREATE TABLE sign_in_failures (
         email_key text NOT NULL REFERENCES sign_in_lockouts (email_key),
         failed_at timestamptz NOT NULL
       )`,
      `CREATE INDEX sign_in_failures_idx ON sign_in_failures (email_key, failed_at)`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['sign_in_failures', 'sign_in_lockouts', 'authorization_codes', 'consent_sessions', 'oauth_clients']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await q.query(`DROP INDEX IF EXISTS users_email_idx`);
    await q.query(`ALTER TABLE users DROP COLUMN IF EXISTS password_hash`);
  }
}

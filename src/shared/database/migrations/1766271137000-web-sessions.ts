import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The page kernel (src/shared/web) owns the sessions of every server-rendered page: the consent pages'
 * and, next, the developer console's. `consent_sessions` becomes `web_sessions`, generic over who
 * signed in (`subject_id`: an owner's user id, a developer's id; no foreign key, as the subject lives
 * in different tables) and what the flow keeps (`data`). Sessions last 30 minutes, so the old table's
 * rows are dropped rather than copied: a sign-in in progress during the upgrade starts again.
 */
export class WebSessions1766271137000 implements MigrationInterface {
  name = 'WebSessions1766271137000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE consent_sessions`);
    await q.query(`CREATE TABLE web_sessions (
      id_hash text PRIMARY KEY,
      csrf_secret text NOT NULL,
      purpose text NOT NULL,
      subject_id uuid,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX web_sessions_expires_idx ON web_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS web_sessions`);
    await q.query(`CREATE TABLE consent_sessions (
      id_hash text PRIMARY KEY,
      csrf_secret text NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('authorize', 'connections')),
      request jsonb,
      user_id uuid REFERENCES users (id),
      organization_id uuid REFERENCES organizations (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX consent_sessions_expires_idx ON consent_sessions (expires_at)`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The developer console (CONTRACT §15), module `developers`: partner developers (email, argon2id
 * password hash, sealed TOTP secret and the last accepted step), the apps each made (the production app
 * and the sandbox project made with it; a row is reserved before the app exists so that the limit of
 * 25 holds under concurrency) and the latest refused partner calls per app and environment.
 */
export class Developers1766290000000 implements MigrationInterface {
  name = 'Developers1766290000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE developers (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      password_hash text NOT NULL,
      totp_secret text NOT NULL,
      totp_last_step bigint,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX developers_email_idx ON developers (lower(email))`);
    await q.query(`CREATE TABLE developer_apps (
      id uuid PRIMARY KEY,
      developer_id uuid NOT NULL REFERENCES developers (id),
      app_id uuid UNIQUE,
      sandbox_project_id uuid,
      sandbox_organization_id uuid,
      sandbox_app_id uuid UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX developer_apps_developer_idx ON developer_apps (developer_id, created_at)`);
    await q.query(`CREATE TABLE refused_calls (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      app_id uuid NOT NULL,
      environment text NOT NULL,
      at timestamptz NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      code text NOT NULL,
      request_id text NOT NULL,
      pointers text NOT NULL DEFAULT ''
    )`);
    await q.query(`CREATE INDEX refused_calls_app_idx ON refused_calls (app_id, environment, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS refused_calls`);
    await q.query(`DROP TABLE IF EXISTS developer_apps`);
    await q.query(`DROP TABLE IF EXISTS developers`);
  }
}

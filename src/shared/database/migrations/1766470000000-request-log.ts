import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The developer console's request log (CONTRACT §15, version 5), module `developers`: every partner call
 * of a known app, per environment, kept REQUEST_LOG_RETENTION_DAYS. It replaces `refused_calls` (the
 * refusals are the log filtered to 4xx and 5xx); the refusals kept so far move into it.
 */
export class RequestLog1766470000000 implements MigrationInterface {
  name = 'RequestLog1766470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE request_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      app_id uuid NOT NULL,
      environment text NOT NULL,
      at timestamptz NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      code text,
      pointers text NOT NULL DEFAULT '',
      duration_ms integer NOT NULL,
      request_id text NOT NULL,
      client_address text NOT NULL DEFAULT '',
      idempotency_key_prefix text
    )`);
    // the page: one app and environment, newest first, 50 at a time
    await q.query(`CREATE INDEX request_log_app_idx ON request_log (app_id, environment, id DESC)`);
    // the retention purge: oldest first
    await q.query(`CREATE INDEX request_log_at_idx ON request_log (at)`);
    await q.query(`INSERT INTO request_log (app_id, environment, at, method, path, status, code, pointers, duration_ms, request_id)
                   SELECT app_id, environment, at, method, path, status, code, pointers, 0, request_id FROM refused_calls ORDER BY id`);
    await q.query(`DROP TABLE refused_calls`);
  }

  async down(q: QueryRunner): Promise<void> {
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
    await q.query(`DROP TABLE IF EXISTS request_log`);
  }
}
